package io.tender.payment;

import io.tender.checkout.Checkout;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.WebhookReceiver;
import io.tender.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Collect's events reach webhooks with no change to webhooks: a merchant subscribed to {@code payment.succeeded} and
 * {@code payment_session.completed} receives them signed, with the objects as GET shows them.
 */
class PaymentWebhookIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;

    private Collect collect;
    private WebhookReceiver receiver;

    @BeforeEach
    void subscribe() {
        collect = new Collect(merchants.create().test(), checkout);
        receiver = WebhookReceiver.start();
        JsonNode endpoint = Collect.expect(201, collect.api.post("/webhook_endpoints", "{\"url\":\""
                + receiver.url("/collect") + "\",\"enabled_events\":[\"payment.succeeded\",\"payment_session.completed\"]}")
                .send());
        receiver.secrets(endpoint.get("secret").stringValue());
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    @Test
    void aPaidSessionSendsSignedPaymentSucceededAndSessionCompletedWebhooks() {
        JsonNode session = collect.session(15000);
        Checkout.Attempt attempt = collect.payByCard(session, "4242424242424242");

        List<Received> received = receiver.await(list -> list.stream().filter(Received::signatureValid).count() >= 2,
                Duration.ofSeconds(30), "two webhooks");
        JsonNode payment = received.stream().map(Received::json)
                .filter(j -> j.get("type").stringValue().equals("payment.succeeded")).findFirst().orElseThrow();
        assertThat(payment.get("data")).isEqualTo(collect.payment(attempt));
        JsonNode completed = received.stream().map(Received::json)
                .filter(j -> j.get("type").stringValue().equals("payment_session.completed")).findFirst().orElseThrow();
        assertThat(completed.get("data")).isEqualTo(collect.refreshed(session));
        assertThat(received).allSatisfy(r -> assertThat(r.signatureValid()).isTrue());
    }
}
