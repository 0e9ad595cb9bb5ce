package io.tender.payment;

import io.tender.idempotency.StoredResponse;
import io.tender.outbox.Outbox;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Payments and payment sessions as the API and their events show them (decisions §6): a session's view names its
 * {@code session_url} under the configured public base URL.
 */
@Component
record PaymentViews(JsonMapper json, PublicBase publicBase) {

    static final String PAYMENT_AGGREGATE = "collect.payment";
    static final String SESSION_AGGREGATE = "collect.payment_session";

    Outbox.Event paymentEvent(Payment payment, String type) {
        return new Outbox.Event(PAYMENT_AGGREGATE, payment.id(), type, payment.updatedAt(),
                json.writeValueAsBytes(PaymentView.of(payment)));
    }

    Outbox.Event sessionEvent(PaymentSession session, String type) {
        return new Outbox.Event(SESSION_AGGREGATE, session.id(), type, session.updatedAt(),
                json.writeValueAsBytes(view(session)));
    }

    PaymentSessionView view(PaymentSession session) {
        return PaymentSessionView.of(session, publicBase.url());
    }

    /** The payment as a capture's or void's answer (200), stored under the request's Idempotency-Key. */
    StoredResponse answer(Payment payment) {
        return StoredResponse.json(200, json.writeValueAsBytes(PaymentView.of(payment)));
    }

    /** The session as a {@code next_in_series} charge's answer (201), which carries the charge's outcome. */
    StoredResponse created(PaymentSession session) {
        return StoredResponse.json(201, json.writeValueAsBytes(view(session)));
    }

    /** The checkout's return route for a processor's 3-D Secure or bank page; null without a checkout. */
    String returnUrl(PaymentSession session) {
        return session == null || session.checkoutSessionId() == null ? null
                : publicBase.url() + "/checkout/" + session.checkoutSessionId() + "/return";
    }
}
