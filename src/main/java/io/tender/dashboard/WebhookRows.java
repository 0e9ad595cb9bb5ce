package io.tender.dashboard;

import io.tender.event.EventTypes;
import io.tender.webhook.WebhookDeliveryLog;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/** The webhook pages' rows (decisions §11): the add form as sent, an endpoint, an attempt, a waiting delivery. */
final class WebhookRows {

    /** Characters of a receiver's answer a row shows (the rest is behind "Full answer"). */
    private static final int EXCERPT_SHOWN = 120;
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMM yyyy", Locale.ENGLISH);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'", Locale.ENGLISH);

    private WebhookRows() {
    }

    /** The add form as it was sent, to show it again with its errors. */
    public record NewEndpoint(String url, boolean all, List<String> types, String description) {
        public boolean chosen(String type) {
            return types.contains(type);
        }
    }

    /** An endpoint as the list and its page show it. */
    public record ListedEndpoint(String id, String url, String description, boolean enabled, String state,
                                 String disabledWhy, String events, boolean allEvents, String created,
                                 String previousSecretUntil) {
        static ListedEndpoint of(WebhookDeliveryLog.Endpoint e) {
            boolean all = e.enabledEvents().contains(EventTypes.WILDCARD);
            String why = e.enabled() ? null : "endpoint_gone".equals(e.disabledReason())
                    ? "It answered 410 Gone." : "Disabled by your team.";
            return new ListedEndpoint(e.id(), e.url(), e.description(), e.enabled(),
                    e.enabled() ? "Enabled" : "Disabled", why,
                    all ? "All events" : String.join(", ", e.enabledEvents()), all,
                    HomeSummary.moment(e.createdAt()),
                    e.previousSecretExpiresAt() == null ? null : HomeSummary.moment(e.previousSecretExpiresAt()));
        }
    }

    /** One attempt as the endpoint's page lists it; {@code excerpt} is shown escaped (th:text). */
    public record ListedAttempt(String id, String eventId, String eventType, int attempt, boolean succeeded,
                                String outcome, String response, String latency, String day, String time,
                                String excerpt,
                                boolean excerptCut, String fullExcerpt, String resendKey) {
        static ListedAttempt of(WebhookDeliveryLog.Attempt a) {
            String response = a.responseStatus() != null ? "HTTP " + a.responseStatus()
                    : a.error() == null ? "No answer" : a.error().replace('_', ' ');
            String full = a.responseExcerpt();
            boolean cut = full != null && full.length() > EXCERPT_SHOWN;
            String shown = full == null ? null : cut ? full.substring(0, EXCERPT_SHOWN) + "…" : full;
            return new ListedAttempt(a.id(), a.eventId(), a.eventType(), a.attempt(), a.succeeded(),
                    a.succeeded() ? "Delivered" : "Failed", response, a.durationMs() + " ms",
                    DAY.format(a.createdAt().atOffset(ZoneOffset.UTC)),
                    CLOCK.format(a.createdAt().atOffset(ZoneOffset.UTC)), shown, cut, full,
                    UUID.randomUUID().toString());
        }
    }

    /** A delivery waiting for its next attempt. */
    public record WaitingDelivery(String eventId, String due) {
    }
}
