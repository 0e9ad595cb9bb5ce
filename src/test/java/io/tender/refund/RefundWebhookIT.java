package io.tender.refund;

import io.tender.checkout.Checkout;
import io.tender.payment.Collect;
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
 * Refunds' events reach webhooks through the outbox like every other: a merchant subscribed to the refund events
 * receives {@code refund.created} then {@code refund.succeeded} (or {@code refund.failed}), signed, with the refund as
 * GET shows it.
 */
class RefundWebhookIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;

    private Collect collect;
    private WebhookReceiver receiver;

    @BeforeEach
    void subscribe() {
        collect = new Collect(merchants.create().test(), checkout);
        receiver = WebhookReceiver.start();
        JsonNode endpoint = Collect.expect(201, collect.api.post("/webhook_endpoints", "{\"url\":\""
                + receiver.url("/refunds") + "\",\"enabled_events\":[\"refund.created\",\"refund.succeeded\","
                + "\"refund.failed\"]}").send());
        receiver.secrets(endpoint.get("secret").stringValue());
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    @Test
    void aRefundSendsSignedCreatedThenSucceededAndADeclinedOneCreatedThenFailed() {
        Checkout.Attempt paid = collect.payByCard(collect.session(9000), "4242424242424242");
        JsonNode ok = Collect.expect(201, collect.api.post("/collect/payments/" + paid.paymentId() + "/refunds",
                "{\"amount\":3000}").send());
        JsonNode declined = Collect.expect(201, collect.api.post("/collect/payments/" + paid.paymentId() + "/refunds",
                "{\"amount\":1051}").send());

        List<Received> received = receiver.await(list -> list.size() >= 4, Duration.ofSeconds(30), "four webhooks");
        assertThat(received).allSatisfy(r -> assertThat(r.signatureValid()).isTrue());
        assertThat(types(received, ok)).containsExactlyInAnyOrder("refund.created", "refund.succeeded");
        assertThat(types(received, declined)).containsExactlyInAnyOrder("refund.created", "refund.failed");
        JsonNode succeeded = received.stream().map(Received::json)
                .filter(j -> j.get("type").stringValue().equals("refund.succeeded")).findFirst().orElseThrow();
        assertThat(succeeded.get("data")).isEqualTo(collect.get("/collect/refunds/" + ok.get("id").stringValue()));
    }

    private static List<String> types(List<Received> received, JsonNode refund) {
        return received.stream().map(Received::json)
                .filter(j -> j.get("data").get("id").stringValue().equals(refund.get("id").stringValue()))
                .map(j -> j.get("type").stringValue()).toList();
    }
}
