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
import io.tender.database.Answers;
import io.tender.database.RoundTrips;
import io.tender.database.Statement;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** The sandbox providers' books: vouchers by keyed hash of their PIN, and every answered call by operation key. */
@Repository
class SandboxVoucherLedger implements SealedColumns {

    record Voucher(byte[] key, long balance, String currency, boolean redeemed) {
    }

    private final JdbcClient jdbc;
    private final RoundTrips trips;
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
    SandboxVoucherLedger(JdbcClient jdbc, RoundTrips trips, HashKeys hashKeys, SecretBox box, JsonMapper json,
                         SandboxProviderSettings settings) {
        this.jdbc = jdbc;
        this.trips = trips;
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
        return jdbc.sql(VOUCHER).param(key).query(voucherRow(key)).optional()
                .orElse(new Voucher(key, defaultValue, "ZAR", false));
    }

    private static final String VOUCHER = "select balance, currency, state from sandbox_vouchers where voucher_key = ?";

    private static RowMapper<Voucher> voucherRow(byte[] key) {
        return (rs, i) -> new Voucher(key, rs.getLong("balance"), rs.getString("currency"),
                "redeemed".equals(rs.getString("state")));
    }

    record Answered(String kind, byte[] voucherKey, long amount, ProviderOutcome outcome) {
    }

    /** What a call writes with its answer: the voucher it is about, the amount, and the answer itself. */
    record Answer(byte[] voucherKey, long amount, ProviderOutcome outcome) {
    }

    /**
     * What a call finds when it starts, and the writes it makes before its answer is recorded. Writes whose result
     * the call does not need wait, and go with the answer and the commit in one round trip.
     */
    final class Books {
        private final RoundTrips.Transaction transaction;
        private final Voucher voucher;
        private final Optional<Answered> related;
        private final List<Statement> writes = new ArrayList<>();

        private Books(RoundTrips.Transaction transaction, Voucher voucher, Optional<Answered> related) {
            this.transaction = transaction;
            this.voucher = voucher;
            this.related = related;
        }

        /** The voucher the call names (an unused one of the default value if the sandbox has not seen it). */
        Voucher voucher() {
            return voucher;
        }

        /** The answer to the call this one refers to: the reservation a confirm takes, the call a reversal undoes. */
        Optional<Answered> related() {
            return related;
        }

        /**
         * Marks the voucher used, atomically: of any number of concurrent calls for one voucher, exactly one gets
         * its balance back; the others get nothing (the voucher is already used).
         */
        Optional<Long> redeem(RedemptionType type, long defaultValue) {
            writes.add(Statement.query("""
                            insert into sandbox_vouchers (voucher_key, type, balance, currency, state, created_at)
                            values (?, ?, ?, 'ZAR', 'redeemed', ?)
                            on conflict (voucher_key) do update set state = 'redeemed'
                            where sandbox_vouchers.state = 'active'
                            returning balance""", (rs, i) -> rs.getLong(1),
                    voucher.key(), type.wire(), defaultValue, Timestamps.now().atOffset(ZoneOffset.UTC)));
            Answers answers = transaction.send(writes);
            Optional<Long> balance = answers.row(writes.size() - 1);
            writes.clear();
            return balance;
        }

        /** Gives the voucher its value back (a reversal, or a confirm that cannot be honoured). */
        void restore() {
            writes.add(Statement.update(
                    "update sandbox_vouchers set state = 'active' where voucher_key = ? and state = 'redeemed'",
                    voucher.key()));
        }

        void issue(RedemptionType type, String secret, long balance) {
            writes.add(Statement.update("""
                            insert into sandbox_vouchers (voucher_key, type, balance, currency, state, created_at)
                            values (?, ?, ?, 'ZAR', 'active', ?)""",
                    keyOf(type, secret), type.wire(), balance, Timestamps.now().atOffset(ZoneOffset.UTC)));
        }

        /** Takes away an issued change voucher again (a reversal of the redeem that issued it). */
        void withdraw(RedemptionType type, String secret) {
            writes.add(Statement.update("update sandbox_vouchers set state = 'redeemed', balance = 0 where voucher_key = ?",
                    keyOf(type, secret)));
        }
    }

    /**
     * Answers a call once: the same operation key asked again gets the first answer, as at a real provider. One
     * transaction of its own (the way a provider is a separate system), serialised with every call of the same key:
     * the advisory lock, the earlier answer, the voucher and the related call's answer in one round trip; then
     * {@code work}'s writes, the answer and the commit in one more (a confirm's redeem, whose result decides the
     * answer, takes one in between). The commit waits for the disk or not as the constructor says.
     *
     * @param voucherKey the voucher's key, or null for a call about no voucher (a status query)
     * @param relatedKey the operation key of the call this one refers to, or null
     */
    ProviderOutcome once(RedemptionType type, String operationKey, String kind, byte[] voucherKey, long defaultValue,
                         String relatedKey, Function<Books, Answer> work) {
        return trips.transaction(transaction -> {
            List<Statement> reads = new ArrayList<>(4);
            reads.add(Statement.query(
                    "select pg_advisory_xact_lock(hashtextextended(?, 0)), set_config('synchronous_commit', ?, true)",
                    null, operationKey, synchronousCommit));
            reads.add(answered(operationKey));
            if (voucherKey != null) {
                reads.add(Statement.query(VOUCHER, voucherRow(voucherKey), voucherKey));
            }
            if (relatedKey != null) {
                reads.add(answered(relatedKey));
            }
            Answers found = transaction.send(reads);
            Optional<Answered> earlier = found.row(1);
            if (earlier.isPresent()) {
                transaction.commit(List.of());
                return earlier.get().outcome();
            }
            Voucher voucher = voucherKey == null ? null : found.<Voucher>row(2)
                    .orElse(new Voucher(voucherKey, defaultValue, "ZAR", false));
            Optional<Answered> related = relatedKey == null ? Optional.empty() : found.row(reads.size() - 1);
            Books books = new Books(transaction, voucher, related);
            Answer answer = work.apply(books);
            books.writes.add(Statement.update("""
                            insert into sandbox_operations (operation_key, type, kind, voucher_key, amount, outcome, created_at)
                            values (?, ?, ?, ?, ?, ?, ?) on conflict (operation_key) do nothing""",
                    operationKey, type.wire(), kind, answer.voucherKey(), answer.amount(),
                    box.seal(protocol.bytes(answer.outcome()), context(operationKey)),
                    Timestamps.now().atOffset(ZoneOffset.UTC)));
            transaction.commit(books.writes);
            return answer.outcome();
        });
    }

    private Statement answered(String operationKey) {
        return Statement.query("select type, kind, voucher_key, amount, outcome from sandbox_operations where operation_key = ?",
                (rs, i) -> new Answered(rs.getString("kind"), rs.getBytes("voucher_key"), rs.getLong("amount"),
                        protocol.read(box.open(rs.getBytes("outcome"), context(operationKey)),
                                RedemptionType.fromWire(rs.getString("type")).orElseThrow())),
                operationKey);
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

    @Override
    public List<SealedColumn> sealedColumns() {
        return List.of(SealedColumn.of("sandbox_operations", "outcome", "operation_key", SandboxVoucherLedger::context));
    }

    /** Binds a sealed answer to its operation. */
    private static String context(String operationKey) {
        return "sandbox-operation:" + operationKey;
    }
}
