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
import java.util.LinkedHashMap;
import java.util.List;

/** The {@code webhook_deliveries} and {@code webhook_attempts} tables. */
@Repository
class WebhookDeliveries {

    /** A due attempt this instance has claimed: it owns it until the lease runs out. */
    record Claim(String deliveryId, String endpointId, String tenant, String eventId, int attempt, int failures) {
    }

    /**
     * Attempts this instance has in flight, by endpoint id and by tenant ({@code "<merchant id> <mode>"}); the maps'
     * key and value orders match (they are copies taken for one claim).
     */
    record InFlight(LinkedHashMap<String, Integer> endpoints, LinkedHashMap<String, Integer> tenants) {
    }

    /** How many due rows, oldest first, one claim looks at to pick a fair share from. */
    static final int CLAIM_WINDOW = 500;

    /** What one attempt found out. {@code responseStatus} is null when no answer arrived. */
    record AttemptResult(boolean succeeded, Integer responseStatus, String error, Duration took, long webhookTimestamp,
                         String responseExcerpt) {
    }

    /** A delivery as {@code POST /events/{id}/redeliver} reports it, with its event. */
    record Delivery(String id, String endpointId, String status, Instant nextAttemptAt, String eventId) {
    }

    /** One attempt as the API lists it. */
    record Attempt(String id, String deliveryId, String eventId, String eventType, int attempt, String outcome,
                   Integer responseStatus, String error, int durationMs, String responseExcerpt, Instant createdAt) {
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
                        rs.getString("status"), rs.getTimestamp("next_attempt_at").toInstant(), event.id()))
                .single();
    }

    /**
     * Claims up to {@code limit} due attempts on enabled endpoints, skipping rows other instances hold, and leases
     * them by moving {@code next_attempt_at} past the lease. An endpoint gets one aggregate's events in order: a
     * delivery is not due while an earlier event of the same aggregate is still pending for that endpoint.
     *
     * <p>Fair: no endpoint gets more than {@code perEndpoint} attempts in flight and no merchant (per mode) more than
     * {@code perTenant}, counting what {@code inFlight} says this instance already runs. Endpoints and merchants at
     * their limit are skipped, not waited for, so the rows behind them (other merchants') are claimed at once.
     */
    List<Claim> claimDue(int limit, Duration lease, InFlight inFlight, int perEndpoint, int perTenant) {
        return jdbc.sql("""
                        with busy_endpoint as (
                            select * from unnest(cast(:busyEndpoints as text[]), cast(:endpointCounts as int[]))
                                as b(endpoint_id, in_flight)),
                        busy_tenant as (
                            select * from unnest(cast(:busyTenants as text[]), cast(:tenantCounts as int[]))
                                as b(tenant, in_flight)),
                        due as (
                            select d.id, d.endpoint_id, d.next_attempt_at, e.merchant_id || ' ' || e.mode as tenant,
                                   coalesce(be.in_flight, 0) as endpoint_busy
                            from webhook_deliveries d
                            join webhook_endpoints e on e.id = d.endpoint_id and e.status = 'enabled'
                            left join busy_endpoint be on be.endpoint_id = d.endpoint_id
                            where d.status = 'pending' and d.next_attempt_at <= now()
                              and coalesce(be.in_flight, 0) < :perEndpoint
                              and e.merchant_id || ' ' || e.mode not in
                                  (select tenant from busy_tenant where in_flight >= :perTenant)
                              and not exists (select 1 from webhook_deliveries earlier
                                              where earlier.endpoint_id = d.endpoint_id
                                                and earlier.aggregateid = d.aggregateid
                                                and earlier.status = 'pending'
                                                and earlier.event_seq < d.event_seq)
                            order by d.next_attempt_at
                            limit :claimWindow),
                        per_endpoint as (
                            select due.*, endpoint_busy + row_number() over (
                                       partition by endpoint_id order by next_attempt_at, id) as endpoint_slot
                            from due),
                        per_tenant as (
                            select p.id, p.next_attempt_at, p.tenant, coalesce(bt.in_flight, 0) + row_number() over (
                                       partition by p.tenant order by p.next_attempt_at, p.id) as tenant_slot
                            from per_endpoint p left join busy_tenant bt on bt.tenant = p.tenant
                            where p.endpoint_slot <= :perEndpoint),
                        chosen as (
                            select d.id, t.tenant from webhook_deliveries d
                            join per_tenant t on t.id = d.id
                            where t.tenant_slot <= :perTenant
                              and d.status = 'pending' and d.next_attempt_at <= now()
                            order by t.next_attempt_at
                            limit :limit
                            for update of d skip locked)
                        update webhook_deliveries w
                        set attempts = w.attempts + 1, next_attempt_at = now() + cast(:lease as interval),
                            updated_at = now()
                        from chosen where w.id = chosen.id
                        returning w.id, w.endpoint_id, chosen.tenant, w.event_id, w.attempts, w.failures""")
                .param("limit", limit)
                .param("lease", lease.toString())
                .param("claimWindow", CLAIM_WINDOW)
                .param("perEndpoint", perEndpoint)
                .param("perTenant", perTenant)
                .param("busyEndpoints", inFlight.endpoints().keySet().toArray(String[]::new))
                .param("endpointCounts", inFlight.endpoints().values().toArray(Integer[]::new))
                .param("busyTenants", inFlight.tenants().keySet().toArray(String[]::new))
                .param("tenantCounts", inFlight.tenants().values().toArray(Integer[]::new))
                .query((rs, row) -> new Claim(rs.getString("id"), rs.getString("endpoint_id"), rs.getString("tenant"),
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
                            outcome, response_status, error, duration_ms, webhook_timestamp, response_excerpt, created_at)
                        select ?, d.id, d.endpoint_id, d.event_id, ?, ?, ?, ?, ?, ?, ?, ?, now()
                        from webhook_deliveries d where d.id = ?""")
                .params(Ids.newId("wha_"), eventType, claim.attempt(), result.succeeded() ? "succeeded" : "failed",
                        result.responseStatus(), result.error(), (int) Math.min(Integer.MAX_VALUE, result.took().toMillis()),
                        result.webhookTimestamp(), result.responseExcerpt(), claim.deliveryId())
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

    /** An endpoint's deliveries that wait for an attempt (the first, a retry, or a redelivery), next due first. */
    List<Delivery> waiting(String endpointId, int limit) {
        return jdbc.sql("""
                        select id, endpoint_id, event_id, status, next_attempt_at from webhook_deliveries
                        where endpoint_id = ? and status = 'pending' order by next_attempt_at, id limit ?""")
                .params(endpointId, limit)
                .query((rs, row) -> new Delivery(rs.getString("id"), rs.getString("endpoint_id"),
                        rs.getString("status"), rs.getTimestamp("next_attempt_at").toInstant(),
                        rs.getString("event_id")))
                .list();
    }

    /** A page of every attempt to the endpoint, whatever its event and outcome. */
    List<Attempt> attempts(String endpointId, ListQuery query) {
        return attempts(endpointId, query, null, null);
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
                rs.getString("error"), rs.getInt("duration_ms"), rs.getString("response_excerpt"),
                rs.getTimestamp("created_at").toInstant());
    }
}
