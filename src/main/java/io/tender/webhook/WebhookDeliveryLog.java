package io.tender.webhook;

import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.auth.Caller;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The module's read facade for other modules: what became of events' deliveries to the merchant's endpoints, for a
 * timeline such as a payment's on the dashboard (decisions §11), and the merchant's endpoints (never their secrets) with
 * their attempts for the dashboard's Developers pages. Reads only; changes go through {@link WebhookService}.
 */
@Component
public class WebhookDeliveryLog {

    /**
     * One event's delivery to one endpoint: {@code pending} (being tried, or waiting for its next try),
     * {@code succeeded} or {@code failed} (every try failed); the last attempt's HTTP status (null: none yet, or no
     * answer, such as a timeout) and when it was made.
     */
    public record Delivery(String endpointId, String url, String status, int attempts, Integer lastResponseStatus,
                           Instant lastAttemptAt) {
    }

    /** An endpoint as the dashboard lists it; never its secrets. */
    public record Endpoint(String id, String url, String description, List<String> enabledEvents, boolean enabled,
                           String disabledReason, Instant previousSecretExpiresAt, Instant createdAt) {
    }

    /**
     * One attempt: {@code succeeded} or not, the receiver's HTTP status (null: no answer, see {@code error}), how long
     * it took, the start of the body it answered (at most 500 characters, as sent: escape it to show it).
     */
    public record Attempt(String id, String deliveryId, String eventId, String eventType, int attempt,
                          boolean succeeded, Integer responseStatus, String error, int durationMs,
                          String responseExcerpt, Instant createdAt) {
    }

    /** A page of an endpoint's attempts, newest first; {@code nextCursor} null on the last page. */
    public record Attempts(List<Attempt> rows, String nextCursor) {
    }

    /** A delivery waiting for its next attempt (the first, a retry, or a redelivery). */
    public record Waiting(String deliveryId, String eventId, Instant nextAttemptAt) {
    }

    private static final java.util.regex.Pattern ATTEMPT_ID = io.tender.api.Ids.pattern("wha_");

    private final JdbcClient jdbc;
    private final WebhookEndpoints endpoints;
    private final WebhookDeliveries attempts;

    WebhookDeliveryLog(JdbcClient jdbc, WebhookEndpoints endpoints, WebhookDeliveries attempts) {
        this.jdbc = jdbc;
        this.endpoints = endpoints;
        this.attempts = attempts;
    }

    /** The caller's endpoints, newest first (a merchant has at most {@code tender.webhooks.max-endpoints} per mode). */
    public List<Endpoint> endpoints(Caller caller) {
        var query = new ListQuery(Map.of("limit", new String[]{"100"}), io.tender.api.Ids.pattern("we_"), Set.of());
        return endpoints.list(caller, query).stream().limit(100).map(WebhookDeliveryLog::endpoint).toList();
    }

    /** The caller's endpoint; empty for another merchant's, the other mode's or an unknown id. */
    public Optional<Endpoint> endpoint(Caller caller, String id) {
        return endpoints.find(caller, id).map(WebhookDeliveryLog::endpoint);
    }

    /**
     * The caller's endpoint's attempts, newest first, {@code limit} a page after {@code cursor} (an attempt id, null
     * for the first page). A cursor that is not an attempt id is a 400 {@link io.tender.api.ApiException}.
     */
    public Attempts attempts(Caller caller, String endpointId, String cursor, int limit) {
        endpoints.get(caller, endpointId);
        Map<String, String[]> parameters = new java.util.HashMap<>();
        parameters.put("limit", new String[]{Integer.toString(limit)});
        if (cursor != null) {
            parameters.put("cursor", new String[]{cursor});
        }
        var query = new ListQuery(parameters, ATTEMPT_ID, Set.of()).throwIfInvalid();
        var page = ListPage.of(attempts.attempts(endpointId, query), query.limit(),
                WebhookDeliveries.Attempt::id, a -> new Attempt(a.id(), a.deliveryId(), a.eventId(), a.eventType(),
                        a.attempt(), a.outcome().equals("succeeded"), a.responseStatus(), a.error(), a.durationMs(),
                        a.responseExcerpt(), a.createdAt()));
        return new Attempts(page.data(), page.hasMore() ? page.nextCursor() : null);
    }

    /** The caller's endpoint's deliveries that wait for an attempt, next due first (at most {@code limit}). */
    public List<Waiting> waiting(Caller caller, String endpointId, int limit) {
        endpoints.get(caller, endpointId);
        return attempts.waiting(endpointId, limit).stream()
                .map(d -> new Waiting(d.id(), d.eventId(), d.nextAttemptAt())).toList();
    }

    private static Endpoint endpoint(WebhookEndpoint e) {
        boolean overlapping = e.previousSecretExpiresAt() != null && e.previousSecretExpiresAt().isAfter(Instant.now());
        return new Endpoint(e.id(), e.url(), e.description(), e.enabledEvents(),
                e.status() == WebhookEndpoint.Status.ENABLED, e.disabledReason(),
                overlapping ? e.previousSecretExpiresAt() : null, e.createdAt());
    }

    /** The deliveries of each of these events to the caller's endpoints, by event id (events without any left out). */
    public Map<String, List<Delivery>> ofEvents(Caller caller, Collection<String> eventIds) {
        Map<String, List<Delivery>> deliveries = new LinkedHashMap<>();
        if (eventIds.isEmpty()) {
            return deliveries;
        }
        jdbc.sql("""
                        select d.event_id, d.endpoint_id, e.url, d.status, d.attempts, a.response_status, a.created_at
                        from webhook_deliveries d
                        join webhook_endpoints e on e.id = d.endpoint_id
                        left join lateral (select response_status, created_at from webhook_attempts
                                           where delivery_id = d.id order by attempt desc limit 1) a on true
                        where d.event_id = any(?::text[]) and e.merchant_id = ? and e.mode = ?
                        order by d.event_id, d.created_at, d.endpoint_id""")
                .params(eventIds.toArray(String[]::new), caller.merchantId(), caller.mode().wire())
                .query(rs -> {
                    Timestamp at = rs.getTimestamp(7);
                    deliveries.computeIfAbsent(rs.getString(1), id -> new ArrayList<>()).add(new Delivery(
                            rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5),
                            (Integer) rs.getObject(6), at == null ? null : at.toInstant()));
                });
        return deliveries;
    }
}
