package io.tender.provider.sandbox;

import io.tender.api.Timestamps;
import io.tender.provider.ProviderOutcome;
import io.tender.provider.ProviderProtocol;
import io.tender.provider.RedemptionType;
import io.tender.secrets.HashKeys;
import io.tender.secrets.KeyedHash;
import io.tender.secrets.SealedColumn;
import io.tender.secrets.SealedColumns;
import io.tender.secrets.SecretBox;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/** The sandbox providers' books: vouchers by keyed hash of their PIN, and every answered call by operation key. */
@Repository
class SandboxVoucherLedger implements SealedColumns {

    record Voucher(byte[] key, long balance, String currency, boolean redeemed) {
    }

    private final JdbcClient jdbc;
    private final KeyedHash voucherHash;
    private final SecretBox box;
    private final ProviderProtocol protocol;
    private final String synchronousCommit;

    /**
     * {@code durableAnswers}: whether a call's answer is on disk before the caller gets it. The provider simulator
     * answers over HTTP to a service with its own database, so it must be. In the service the sandbox's books are in
     * the service's own database, and a call's transaction commits without waiting for the disk
     * ({@code synchronous_commit = off} for that transaction only): the service writes what the answer means in its
     * next transaction, whose synchronous commit follows it in the same write-ahead log and so makes both durable
     * together, before any redemption's answer reports it. A crash in between loses the answer and the service's
     * record of it alike, and the recovery job resolves the call as after any lost answer (docs/PERFORMANCE.md,
     * step 7).
     */
    SandboxVoucherLedger(JdbcClient jdbc, HashKeys hashKeys, SecretBox box, JsonMapper json,
                         SandboxProviderSettings settings) {
        this.jdbc = jdbc;
        this.synchronousCommit = settings.durableAnswers() ? "on" : "off";
        this.voucherHash = hashKeys.hash("sandbox-voucher/v1");
        this.box = box;
        this.protocol = new ProviderProtocol(json);
    }

    byte[] keyOf(RedemptionType type, String secret) {
        return voucherHash.of(type.wire() + ":" + secret);
    }

    /** The voucher, or an unused one of the default value: every well-formed PIN is a voucher in the sandbox. */
    Voucher voucher(RedemptionType type, String secret, long defaultValue) {
        byte[] key = keyOf(type, secret);
        return jdbc.sql("select balance, currency, state from sandbox_vouchers where voucher_key = ?")
                .param(key)
                .query((rs, i) -> new Voucher(key, rs.getLong("balance"), rs.getString("currency"),
                        "redeemed".equals(rs.getString("state"))))
                .optional()
                .orElse(new Voucher(key, defaultValue, "ZAR", false));
    }

    /**
     * Marks the voucher used, atomically: of any number of concurrent calls for one voucher, exactly one gets its
     * balance back; the others get nothing (the voucher is already used).
     */
    Optional<Long> redeem(RedemptionType type, byte[] key, long defaultValue) {
        return jdbc.sql("""
                        insert into sandbox_vouchers (voucher_key, type, balance, currency, state, created_at)
                        values (?, ?, ?, 'ZAR', 'redeemed', ?)
                        on conflict (voucher_key) do update set state = 'redeemed'
                        where sandbox_vouchers.state = 'active'
                        returning balance""")
                .params(key, type.wire(), defaultValue, Timestamps.now().atOffset(ZoneOffset.UTC))
                .query(Long.class)
                .optional();
    }

    /** Gives a redeemed voucher its value back (a reversal). */
    boolean restore(byte[] key) {
        return jdbc.sql("update sandbox_vouchers set state = 'active' where voucher_key = ? and state = 'redeemed'")
                .param(key).update() == 1;
    }

    void issue(RedemptionType type, String secret, long balance) {
        jdbc.sql("""
                        insert into sandbox_vouchers (voucher_key, type, balance, currency, state, created_at)
                        values (?, ?, ?, 'ZAR', 'active', ?)""")
                .params(keyOf(type, secret), type.wire(), balance, Timestamps.now().atOffset(ZoneOffset.UTC))
                .update();
    }

    /** Takes away an issued change voucher again (a reversal of the redeem that issued it). */
    void withdraw(byte[] key) {
        jdbc.sql("update sandbox_vouchers set state = 'redeemed', balance = 0 where voucher_key = ?").param(key).update();
    }

    /**
     * Serialises calls with the same operation key, for the rest of the current transaction, and sets whether that
     * transaction's commit waits for the disk (see the constructor); one statement, one round trip.
     */
    void lock(String operationKey) {
        jdbc.sql("select pg_advisory_xact_lock(hashtextextended(?, 0)), set_config('synchronous_commit', ?, true)")
                .params(operationKey, synchronousCommit).query().singleRow();
    }

    record Answered(String kind, byte[] voucherKey, long amount, ProviderOutcome outcome) {
    }

    Optional<Answered> answered(String operationKey) {
        return jdbc.sql("select type, kind, voucher_key, amount, outcome from sandbox_operations where operation_key = ?")
                .param(operationKey)
                .query((rs, i) -> new Answered(rs.getString("kind"), rs.getBytes("voucher_key"), rs.getLong("amount"),
                        protocol.read(box.open(rs.getBytes("outcome"), context(operationKey)),
                                RedemptionType.fromWire(rs.getString("type")).orElseThrow())))
                .optional();
    }

    /** One answered call, as the simulator's ledger endpoint shows it. */
    record Entry(String operationKey, String type, String kind, String voucher, long amount, String result,
                 String errorCode) {
    }

    List<Entry> entries() {
        return jdbc.sql("select operation_key, type, kind, voucher_key, amount, outcome from sandbox_operations order by created_at")
                .query((rs, i) -> {
                    String key = rs.getString("operation_key");
                    ProviderOutcome outcome = protocol.read(box.open(rs.getBytes("outcome"), context(key)),
                            RedemptionType.fromWire(rs.getString("type")).orElseThrow());
                    return new Entry(key, rs.getString("type"), rs.getString("kind"),
                            java.util.HexFormat.of().formatHex(rs.getBytes("voucher_key")), rs.getLong("amount"),
                            switch (outcome) {
                                case ProviderOutcome.Approved a -> "approved";
                                case ProviderOutcome.Declined d -> "declined";
                                case ProviderOutcome.Unknown u -> "unknown";
                            },
                            switch (outcome) {
                                case ProviderOutcome.Declined d -> d.errorCode();
                                default -> null;
                            });
                })
                .list();
    }

    void record(String operationKey, RedemptionType type, String kind, byte[] voucherKey, long amount,
                ProviderOutcome outcome) {
        jdbc.sql("""
                        insert into sandbox_operations (operation_key, type, kind, voucher_key, amount, outcome, created_at)
                        values (?, ?, ?, ?, ?, ?, ?) on conflict (operation_key) do nothing""")
                .params(operationKey, type.wire(), kind, voucherKey, amount,
                        box.seal(protocol.bytes(outcome), context(operationKey)),
                        Timestamps.now().atOffset(ZoneOffset.UTC))
                .update();
    }

    @Override
    public List<SealedColumn> sealedColumns() {
        return List.of(SealedColumn.of("sandbox_operations", "outcome", "operation_key", SandboxVoucherLedger::context));
    }

    /** Binds a sealed answer to its operation. */
    private static String context(String operationKey) {
        return "sandbox-operation:" + operationKey;
    }
}
