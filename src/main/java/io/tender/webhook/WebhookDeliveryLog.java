package io.tender.webhook;

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

/**
 * The module's read facade for other modules: what became of events' deliveries to the merchant's endpoints, for a
 * timeline such as a payment's on the dashboard (decisions §11). Reads only; resending stays in {@link WebhookService}.
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

    private final JdbcClient jdbc;

    WebhookDeliveryLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
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
