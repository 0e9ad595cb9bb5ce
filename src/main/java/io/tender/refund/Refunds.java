package io.tender.refund;

import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.settlement.LeasedRows;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code refunds} table. Writes of a refund's state are conditional on the revision read, under a lease while a
 * request or the recovery job calls the processor (settlement kernel). Drafts (not accepted by the processor yet)
 * are never read by the API.
 */
@Repository
class Refunds {

    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };
    private static final TypeReference<Map<String, String>> STRINGS = new TypeReference<>() {
    };
    private static final String SHOWN = "(select * from refunds where status <> 'draft') shown";

    private final JdbcClient jdbc;
    private final LeasedRows rows;
    private final JsonMapper json;

    Refunds(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.rows = new LeasedRows(jdbc, "refunds");
        this.json = json;
    }

    void insert(Refund r, Duration lease) {
        Map<String, Object> params = changing(r, lease);
        params.put("merchant", r.merchantId());
        params.put("mode", r.mode().wire());
        params.put("payment", r.paymentId());
        params.put("amount", r.amount());
        params.put("currency", r.currency());
        params.put("reason", r.terms().reason() == null ? null : r.terms().reason().wire());
        params.put("metadata", r.terms().metadata() == null ? null : json.writeValueAsString(r.terms().metadata()));
        params.put("authorizationKey", r.terms().authorizationKey());
        params.put("createdAt", r.terms().createdAt().atOffset(ZoneOffset.UTC));
        jdbc.sql("""
                        insert into refunds (id, merchant_id, mode, payment_id, amount, currency, status, reason,
                            failure_reason, metadata, call_status, processor_key, authorization_key,
                            processor_reference, created_at, updated_at, revision, lease_until)
                        values (:id, :merchant, :mode, :payment, :amount, :currency, :status, :reason,
                            :failureReason, :metadata::jsonb, :call, :processorKey, :authorizationKey,
                            :reference::jsonb, :createdAt, :updatedAt, 1, :lease)""")
                .params(params).update();
        r.written();
    }

    /** Writes the refund's new state if nobody else wrote it since it was read ({@code StaleWrite} otherwise). */
    void update(Refund r, Duration lease) {
        rows.updateOrThrow(r.id(), changing(r, lease), """
                update refunds set status = :status, failure_reason = :failureReason, call_status = :call,
                    processor_key = :processorKey, processor_reference = :reference::jsonb,
                    revision = revision + 1, lease_until = :lease, updated_at = :updatedAt
                where id = :id and revision = :revision""");
        r.written();
    }

    void release(Refund r) {
        rows.release(r.id(), r.revision());
    }

    /** What the payment's refunds that are not failed (drafts included: their calls may succeed) add up to. */
    long committed(String paymentId) {
        return jdbc.sql("select coalesce(sum(amount), 0) from refunds where payment_id = ? and status <> 'failed'")
                .param(paymentId).query(Long.class).single();
    }

    Optional<Refund> find(Caller caller, String id) {
        return jdbc.sql("select * from refunds where id = ? and merchant_id = ? and mode = ? and status <> 'draft'")
                .params(id, caller.merchantId(), caller.mode().wire()).query(this::map).optional();
    }

    /** The payment's refunds (not drafts), oldest first; the payment is the caller's, read before. */
    List<Refund> ofPayment(String paymentId) {
        return jdbc.sql("select * from refunds where payment_id = ? and status <> 'draft' order by created_at, id")
                .param(paymentId).query(this::map).list();
    }

    List<Refund> list(Caller caller, ListQuery query, String payment, String status) {
        return ListSql.from("select * from " + SHOWN).ownedBy(caller).where("payment_id", payment)
                .where("status", status).page(jdbc, query, this::map);
    }

    /**
     * Takes refunds for the recovery job: those whose call is being sent or unknown and untouched since
     * {@code settledBefore} (their request may still be on it), and those the processor accepted for later and last
     * asked about before {@code acceptedBefore} (nobody else asks).
     */
    List<Refund> claimUnfinished(Instant settledBefore, Instant acceptedBefore, Duration lease, int limit) {
        return rows.claim("""
                        (call_status in ('pending', 'unknown') and updated_at < :settledBefore)
                        or (call_status = 'accepted' and updated_at < :acceptedBefore)""",
                Map.of("settledBefore", settledBefore.atOffset(ZoneOffset.UTC),
                        "acceptedBefore", acceptedBefore.atOffset(ZoneOffset.UTC)), lease, limit, this::map);
    }

    private Map<String, Object> changing(Refund r, Duration lease) {
        Map<String, Object> params = LeasedRows.writeParams(r.id(), r.revision(), lease, r.updatedAt());
        params.put("status", r.status().wire());
        params.put("failureReason", r.failureReason());
        params.put("call", r.call().wire());
        params.put("processorKey", r.processorKey());
        params.put("reference", r.processorReference() == null ? null : json.writeValueAsString(r.processorReference()));
        return params;
    }

    private Refund map(ResultSet rs, int row) throws SQLException {
        String metadata = rs.getString("metadata");
        String reference = rs.getString("processor_reference");
        String reason = rs.getString("reason");
        var terms = new Refund.Terms(rs.getString("id"), rs.getString("merchant_id"),
                Mode.fromWire(rs.getString("mode")), rs.getString("payment_id"), rs.getLong("amount"),
                rs.getString("currency"), reason == null ? null : RefundReason.fromWire(reason).orElseThrow(),
                metadata == null ? null : json.readValue(metadata, STRINGS), rs.getString("authorization_key"),
                rs.getTimestamp("created_at").toInstant());
        return Refund.restored(terms, Refund.Status.fromWire(rs.getString("status")), rs.getString("failure_reason"),
                Refund.Call.fromWire(rs.getString("call_status")), rs.getString("processor_key"),
                reference == null ? null : json.readValue(reference, OBJECT), rs.getTimestamp("updated_at").toInstant(),
                rs.getInt("revision"));
    }
}
