package io.tender.payment;

import io.tender.checkout.Checkout;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §6 "Events" through the outbox: each payment and session transition writes its CloudEvent, whose data is
 * the object as GET shows it at that moment; a declined attempt is {@code payment.attempt_failed}, the fifth
 * {@code payment.failed}; a manual authorization sends {@code payment.succeeded}, then {@code payment.captured} and
 * {@code payment.voided}.
 */
public class PaymentEventsIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;

    private Api api;
    private Collect collect;

    @BeforeEach
    void merchant() {
        api = merchants.create().test();
        collect = new Collect(api, checkout);
    }

    public static List<JsonNode> events(JdbcClient jdbc, String aggregateId) {
        return jdbc.sql("select payload::text from outbox where aggregateid = ? order by created_at, id")
                .params(aggregateId).query(String.class).list().stream().map(Api.JSON::readTree).toList();
    }

    public static List<String> types(JdbcClient jdbc, String aggregateId) {
        return events(jdbc, aggregateId).stream().map(e -> e.get("type").stringValue()).toList();
    }

    @Test
    void aPaidSessionSendsItsEventsWithTheObjectsAsGetShowsThem() {
        JsonNode session = collect.session(2000);
        String sessionId = session.get("id").stringValue();
        Checkout.Attempt declined = collect.payByCard(session, "4000000000009995");
        Checkout.Attempt paid = collect.payByCard(session, "4242424242424242");

        assertThat(types(jdbc, sessionId)).containsExactly("payment_session.created", "payment_session.updated",
                "payment_session.updated", "payment_session.updated", "payment_session.completed");
        List<JsonNode> sessionEvents = events(jdbc, sessionId);
        assertThat(sessionEvents.getFirst().get("data")).isEqualTo(session);
        assertThat(sessionEvents.getLast().get("data")).isEqualTo(collect.refreshed(session));
        assertThat(sessionEvents.getLast().get("source").stringValue()).isEqualTo("/collect/payment_session");

        assertThat(types(jdbc, declined.paymentId())).containsExactly("payment.attempt_failed");
        assertThat(events(jdbc, declined.paymentId()).getFirst().get("data")).isEqualTo(collect.payment(declined));
        assertThat(types(jdbc, paid.paymentId())).containsExactly("payment.succeeded");
        JsonNode succeeded = events(jdbc, paid.paymentId()).getFirst();
        assertThat(succeeded.get("data")).isEqualTo(collect.payment(paid));
        assertThat(succeeded.get("subject").stringValue()).isEqualTo(paid.paymentId());
    }

    @Test
    void theLastAllowedAttemptFailingSendsPaymentFailed() {
        JsonNode session = collect.session(100);
        Checkout.Attempt last = null;
        for (int i = 0; i < PaymentSession.MAX_ATTEMPTS; i++) {
            last = collect.payByCard(session, "4000000000000002");
        }
        assertThat(types(jdbc, last.paymentId())).containsExactly("payment.failed");
    }

    @Test
    void aManualPaymentSendsSucceededCapturedAndVoided() {
        JsonNode session = collect.manualSession(3000);
        Checkout.Attempt attempt = collect.payByCard(session, "5555555555554444");
        String path = "/collect/payments/" + attempt.paymentId();
        Collect.expect(200, api.post(path + "/captures", "{\"amount\":1000}").send());
        JsonNode voided = Collect.expect(200, api.post(path + "/voids", "{}").send());

        assertThat(types(jdbc, attempt.paymentId())).containsExactly("payment.succeeded", "payment.captured",
                "payment.voided");
        assertThat(events(jdbc, attempt.paymentId()).getLast().get("data")).isEqualTo(voided);
        assertThat(types(jdbc, session.get("id").stringValue())).endsWith("payment_session.completed");

        JsonNode untouched = collect.payment(collect.payByCard(collect.manualSession(500), "4242424242424242"));
        Collect.expect(200, api.post("/collect/payments/" + untouched.get("id").stringValue() + "/voids", "{}").send());
        assertThat(types(jdbc, untouched.get("id").stringValue())).containsExactly("payment.succeeded",
                "payment.voided", "payment.cancelled");
    }
}
