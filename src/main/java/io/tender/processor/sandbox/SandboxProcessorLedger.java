package io.tender.processor.sandbox;

import io.tender.api.Ids;
import io.tender.api.Timestamps;
import io.tender.database.Answers;
import io.tender.database.RoundTrips;
import io.tender.database.Statement;
import io.tender.processor.ProcessorOutcome;
import io.tender.processor.ProcessorProtocol;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.IntSupplier;

/** The sandbox processor's books: every answered call by operation key (no card data, only outcomes and amounts). */
@Repository
class SandboxProcessorLedger {

    /**
     * One answered call. {@code approveAt}: an app approval that arrives by itself at that time, or an accepted
     * refund that is approved then. {@code keeps}: for an authorization waiting for the customer that asked to keep
     * the card, how the card behaves when charged later (it is kept once approved); null otherwise.
     */
    record Entry(String operationKey, String kind, String authorizationKey, long amount, String currency,
                 ProcessorOutcome outcome, Instant approveAt, String funding, String keeps) {

        /** An answer that neither arrives later nor keeps a card. */
        static Entry answered(String operationKey, String kind, String authorizationKey, long amount, String currency,
                              ProcessorOutcome outcome) {
            return new Entry(operationKey, kind, authorizationKey, amount, currency, outcome, null, null, null);
        }

        /** A call that was never received, fenced so that it can never be approved later. */
        static Entry fenced(String operationKey, String currency, ProcessorOutcome outcome) {
            return answered(operationKey, "fenced", null, 0, currency, outcome);
        }

        Entry approvingAt(Instant at) {
            return new Entry(operationKey, kind, authorizationKey, amount, currency, outcome, at, funding, keeps);
        }

        Entry keeping(String behaviour) {
            return new Entry(operationKey, kind, authorizationKey, amount, currency, outcome, approveAt, funding,
                    behaviour);
        }
    }

    /** A card kept under a token: how it behaves when charged without the customer. */
    record KeptCard(String token, String behaviour, String funding) {
    }

    private static final String LOCK = "select pg_advisory_xact_lock(hashtextextended(?, 1))";
    private static final String FIND = "select * from sandbox_processor_operations where operation_key = ?";
    private static final String KEPT_CARD = "select * from sandbox_processor_methods where token = ?";
    private static final String CHARGED_KEPT =
            "update sandbox_processor_methods set charges = charges + 1 where token = ? returning charges - 1";
    private static final String RECORD = """
            insert into sandbox_processor_operations (operation_key, kind, authorization_key, amount,
                currency, outcome, approve_at, funding, keeps_card, created_at)
            values (?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?) on conflict (operation_key) do nothing""";

    private final JdbcClient jdbc;
    private final RoundTrips trips;
    private final ProcessorProtocol protocol;

    SandboxProcessorLedger(JdbcClient jdbc, RoundTrips trips, JsonMapper json) {
        this.jdbc = jdbc;
        this.trips = trips;
        this.protocol = new ProcessorProtocol(json);
    }

    /**
     * Answers a charge of a kept card once (the same key again gets the first answer), in a transaction of its own
     * serialised with every call of the same key, as {@link SandboxProcessor} answers every call: the key's lock, an
     * earlier answer and the kept card in one round trip; then {@code work}'s answer recorded with the commit in one
     * more. {@code work} gets the card (empty for a token the sandbox never issued) and a counter of the card's
     * charges (which costs a round trip of its own: only the card that changes with its charges uses it).
     */
    ProcessorOutcome chargeKeptOnce(String operationKey, String token,
                                    BiFunction<Optional<KeptCard>, IntSupplier, Entry> work) {
        return trips.transaction(transaction -> {
            Answers found = transaction.send(Statement.query(LOCK, null, operationKey),
                    Statement.query(FIND, this::entry, operationKey),
                    Statement.query(KEPT_CARD, SandboxProcessorLedger::keptCard, token));
            Optional<Entry> earlier = found.row(1);
            if (earlier.isPresent()) {
                transaction.commit(List.of());
                return earlier.get().outcome();
            }
            Entry entry = work.apply(found.row(2), () -> transaction.send(
                    Statement.query(CHARGED_KEPT, (rs, i) -> rs.getInt(1), token)).<Integer>row(0).orElseThrow());
            transaction.commit(List.of(recording(entry)));
            return entry.outcome();
        });
    }

    /** Serialises calls with the same key (or on the same authorization) for the rest of the transaction. */
    void lock(String key) {
        jdbc.sql(LOCK).param(key).query().singleRow();
    }

    Optional<Entry> find(String operationKey) {
        return jdbc.sql(FIND).param(operationKey).query(this::entry).optional();
    }

    private Entry entry(ResultSet rs, int row) throws SQLException {
        return new Entry(rs.getString("operation_key"), rs.getString("kind"), rs.getString("authorization_key"),
                rs.getLong("amount"), rs.getString("currency"),
                protocol.read(rs.getString("outcome").getBytes(StandardCharsets.UTF_8)),
                rs.getTimestamp("approve_at") == null ? null : rs.getTimestamp("approve_at").toInstant(),
                rs.getString("funding"), rs.getString("keeps_card"));
    }

    /** Keeps a card under a new token (in the transaction of the approval that keeps it) and returns the token. */
    String keepCard(String behaviour, String funding) {
        String token = "sbxtok_" + Ids.randomHex(16);
        jdbc.sql("insert into sandbox_processor_methods (token, behaviour, funding, created_at) values (?, ?, ?, ?)")
                .params(token, behaviour, funding, Timestamps.now().atOffset(ZoneOffset.UTC)).update();
        return token;
    }

    private static KeptCard keptCard(ResultSet rs, int row) throws SQLException {
        return new KeptCard(rs.getString("token"), rs.getString("behaviour"), rs.getString("funding"));
    }

    void record(Entry e) {
        Statement recording = recording(e);
        jdbc.sql(recording.sql()).params(recording.args()).update();
    }

    private Statement recording(Entry e) {
        return Statement.update(RECORD, e.operationKey(), e.kind(), e.authorizationKey(), e.amount(), e.currency(),
                new String(protocol.bytes(e.outcome()), StandardCharsets.UTF_8),
                e.approveAt() == null ? null : e.approveAt().atOffset(ZoneOffset.UTC), e.funding(), e.keeps(),
                Timestamps.now().atOffset(ZoneOffset.UTC));
    }

    /** Replaces the answer of a call that was waiting for the customer (or, a refund, for the processor itself). */
    void settle(String operationKey, ProcessorOutcome outcome) {
        jdbc.sql("update sandbox_processor_operations set outcome = ?::jsonb, approve_at = null where operation_key = ?")
                .params(new String(protocol.bytes(outcome), java.nio.charset.StandardCharsets.UTF_8), operationKey)
                .update();
    }

    /** The approved captures and releases of an authorization, summed. */
    long used(String authorizationKey) {
        return jdbc.sql("""
                        select coalesce(sum(amount), 0) from sandbox_processor_operations
                        where authorization_key = ? and kind in ('capture', 'void')
                          and outcome->>'result' = 'approved'""")
                .param(authorizationKey).query(Long.class).single();
    }

    /** The approved captures of an authorization, summed: what a refund can give back of an {@code authorize}. */
    long captured(String authorizationKey) {
        return jdbc.sql("""
                        select coalesce(sum(amount), 0) from sandbox_processor_operations
                        where authorization_key = ? and kind = 'capture' and outcome->>'result' = 'approved'""")
                .param(authorizationKey).query(Long.class).single();
    }

    /** The refunds of an authorization that gave money back or are on their way to, summed. */
    long refunded(String authorizationKey) {
        return jdbc.sql("""
                        select coalesce(sum(amount), 0) from sandbox_processor_operations
                        where authorization_key = ? and kind = 'refund'
                          and outcome->>'result' in ('approved', 'pending')""")
                .param(authorizationKey).query(Long.class).single();
    }

    List<Entry> entries() {
        return jdbc.sql("select operation_key from sandbox_processor_operations order by created_at")
                .query(String.class).list().stream().map(k -> find(k).orElseThrow()).toList();
    }
}
