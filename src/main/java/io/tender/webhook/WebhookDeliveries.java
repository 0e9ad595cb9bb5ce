package io.tender.webhook;

import io.tender.api.Ids;
import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.outbox.OutboxEvent;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The {@code webhook_deliveries} and {@code webhook_attempts} tables. */
@Repository
class WebhookDeliveries {

    /** A due attempt this instance has claimed: it owns it until the lease runs out. */
    record Claim(String deliveryId, String endpointId, String eventId, int attempt, int failures) {
    }

    /** What one attempt found out. {@code responseStatus} is null when no answer arrived. */
    record AttemptResult(boolean succeeded, Integer responseStatus, String error, Duration took, long webhookTimestamp) {
    }

    /** A delivery as {@code POST /events/{id}/redeliver} reports it. */
    record Delivery(String id, String endpointId, String status, Instant nextAttemptAt) {
    }

    /** One attempt as the API lists it. */
    record Attempt(String id, String deliveryId, String eventId, String eventType, int attempt, String outcome,
                   Integer responseStatus, String error, int durationMs, Instant createdAt) {
    }

    private final JdbcClient jdbc;

    WebhookDeliveries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Queues the event for the endpoint, due now; a second call for the same pair changes nothing. */
    void enqueue(String endpointId, OutboxEvent event) {
        jdbc.sql("""
                        insert into webhook_deliveries (id, endpoint_id, event_id, event_seq, aggregateid, status,
                            attempts, failures, next_attempt_at, created_at, updated_at)
                        values (?, ?, ?, ?, ?, 'pending', 0, 0, now(), now(), now())
                        on conflict (endpoint_id, event_id) do nothing""")
                .params(Ids.newId("whd_"), endpointId, event.id(), event.seq(), event.aggregateId())
                .update();
    }

    /** Queues the event again, due now and with a fresh retry schedule, whatever became of earlier attempts. */
    Delivery redeliver(String endpointId, OutboxEvent event) {
        return jdbc.sql("""
                        insert into webhook_deliveries (id, endpoint_id, event_id, event_seq, aggregateid, status,
                            attempts, failures, next_attempt_at, created_at, updated_at)
                        values (?, ?, ?, ?, ?, 'pending', 0, 0, now(), now(), now())
                        on conflict (endpoint_id, event_id) do update
                            set status = 'pending', failures = 0, next_attempt_at = now(), updated_at = now()
                        returning id, endpoint_id, status, next_attempt_at""")
                .params(Ids.newId("whd_"), endpointId, event.id(), event.seq(), event.aggregateId())
                .query((rs, row) -> new Delivery(rs.getString("id"), rs.getString("endpoint_id"),
                        rs.getString("status"), rs.getTimestamp("next_attempt_at").toInstant()))
                .single();
    }

    /**
     * Claims up to {@code limit} due attempts on enabled endpoints, skipping rows other instances hold, and leases
     * them by moving {@code next_attempt_at} past the lease. An endpoint gets one aggregate's events in order: a
     * delivery is not due while an earlier event of the same aggregate is still pending for that endpoint.
     */
    List<Claim> claimDue(int limit, Duration lease) {
        return jdbc.sql("""
                        with due as (
                            select d.id from webhook_deliveries d
                            join webhook_endpoints e on e.id = d.endpoint_id and e.status = 'enabled'
                            where d.status = 'pending' and d.next_attempt_at <= now()
                              and not exists (select 1 from webhook_deliveries earlier
                                              where earlier.endpoint_id = d.endpoint_id
                                                and earlier.aggregateid = d.aggregateid
                                                and earlier.status = 'pending'
                                                and earlier.event_seq < d.event_seq)
                            order by d.next_attempt_at
                            limit :limit
                            for update of d skip locked)
                        update webhook_deliveries w
                        set attempts = w.attempts + 1, next_attempt_at = now() + cast(:lease as interval),
                            updated_at = now()
                        from due where w.id = due.id
                        returning w.id, w.endpoint_id, w.event_id, w.attempts, w.failures""")
                .param("limit", limit)
                .param("lease", lease.toString())
                .query((rs, row) -> new Claim(rs.getString("id"), rs.getString("endpoint_id"),
                        rs.getString("event_id"), rs.getInt("attempts"), rs.getInt("failures")))
                .list();
    }

    /** Lets a claimed attempt that was not made be claimed again at once (its endpoint was disabled meanwhile). */
    void release(Claim claim) {
        jdbc.sql("update webhook_deliveries set next_attempt_at = now() where id = ? and status = 'pending'")
                .params(claim.deliveryId())
                .update();
    }

    /**
     * Records an attempt and moves the delivery on: succeeded, due again after {@code retryAfter}, or failed for
     * good when {@code retryAfter} is null. A delivery deleted meanwhile (with its endpoint) records nothing.
     */
    void record(Claim claim, String eventType, AttemptResult result, Duration retryAfter) {
        jdbc.sql("""
                        insert into webhook_attempts (id, delivery_id, endpoint_id, event_id, event_type, attempt,
                            outcome, response_status, error, duration_ms, webhook_timestamp, created_at)
                        select ?, d.id, d.endpoint_id, d.event_id, ?, ?, ?, ?, ?, ?, ?, now()
                        from webhook_deliveries d where d.id = ?""")
                .params(Ids.newId("wha_"), eventType, claim.attempt(), result.succeeded() ? "succeeded" : "failed",
                        result.responseStatus(), result.error(), (int) Math.min(Integer.MAX_VALUE, result.took().toMillis()),
                        result.webhookTimestamp(), claim.deliveryId())
                .update();
        if (result.succeeded()) {
            jdbc.sql("""
                            update webhook_deliveries set status = 'succeeded', failures = 0, updated_at = now()
                            where id = ? and status = 'pending'""")
                    .params(claim.deliveryId()).update();
        } else if (retryAfter != null) {
            jdbc.sql("""
                            update webhook_deliveries set failures = ?, next_attempt_at = now() + cast(? as interval),
                                updated_at = now()
                            where id = ? and status = 'pending'""")
                    .params(claim.failures() + 1, retryAfter.toString(), claim.deliveryId()).update();
        } else {
            jdbc.sql("""
                            update webhook_deliveries set status = 'failed', failures = ?, updated_at = now()
                            where id = ? and status = 'pending'""")
                    .params(claim.failures() + 1, claim.deliveryId()).update();
        }
    }

    /** An endpoint's attempts, newest first ({@code limit + 1} rows). */
    List<Attempt> attempts(String endpointId, ListQuery query, String eventId, String outcome) {
        return ListSql.from("select * from webhook_attempts").where("endpoint_id", endpointId)
                .where("event_id", eventId).where("outcome", outcome).page(jdbc, query, WebhookDeliveries::attempt);
    }

    private static Attempt attempt(ResultSet rs, int row) throws SQLException {
        int status = rs.getInt("response_status");
        Integer responseStatus = rs.wasNull() ? null : status;
        return new Attempt(rs.getString("id"), rs.getString("delivery_id"), rs.getString("event_id"),
                rs.getString("event_type"), rs.getInt("attempt"), rs.getString("outcome"), responseStatus,
                rs.getString("error"), rs.getInt("duration_ms"), rs.getTimestamp("created_at").toInstant());
    }
}
