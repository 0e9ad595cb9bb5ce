package io.tender.event;

import java.util.List;
import java.util.Set;

/**
 * Every event type the service emits or has announced (spec "Events", decisions §2), so that webhook endpoints and
 * event filters name real types. A module that starts emitting a new type adds it here.
 */
public final class EventTypes {

    /** Subscribes a webhook endpoint to every type, including types added later. */
    public static final String WILDCARD = "*";

    /**
     * A test event a merchant sends to one endpoint (the dashboard's "Send test event"): it goes to that endpoint
     * alone, whatever other endpoints subscribe to, and changes nothing.
     */
    public static final String WEBHOOK_TEST = "webhook_endpoint.test";

    public static final List<String> ALL = List.of(
            "redemption.created", "redemption.reserved", "redemption.confirmed", "redemption.failed",
            "redemption.reversed",
            "obligation.amount_applied", "obligation.amount_reversed",
            "payment.succeeded",
            "payment.attempt_failed", "payment.captured", "payment.voided", "payment.failed", "payment.cancelled",
            "payment.expired",
            "refund.created", "refund.succeeded", "refund.failed",
            "mandate.created", "mandate.cancelled", "mandate.completed", "mandate.payment_upcoming",
            "subscription.created", "subscription.updated", "subscription.cancelled",
            "payment_session.created", "payment_session.updated", "payment_session.completed",
            "payment_session.expired",
            "payment_request.created", "payment_request.updated", "payment_request.paid",
            "payment_request.cancelled", "payment_request.expired", "payment_request.failed",
            "payment_page.payment_received",
            WEBHOOK_TEST);

    private static final Set<String> KNOWN = Set.copyOf(ALL);

    private EventTypes() {
    }

    public static boolean known(String type) {
        return KNOWN.contains(type);
    }
}
