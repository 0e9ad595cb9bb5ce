package io.tender.subscription;

import io.tender.payment.Collect;
import io.tender.checkout.Checkout;
import io.tender.processor.sandbox.SandboxProcessor;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.WebhookReceiver;
import io.tender.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The series' events reach webhooks through the outbox like every other (decisions §8): a merchant subscribed to them
 * receives {@code mandate.created}, {@code subscription.created}, the notice {@code mandate.payment_upcoming}, the
 * charge's {@code payment.failed} saying whether it will be retried, {@code subscription.updated} as it goes
 * {@code past_due}, and at the end {@code subscription.cancelled} and {@code mandate.cancelled}; signed, with the
 * objects as GET shows them.
 */
class SeriesWebhookIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;

    private Series series;
    private WebhookReceiver receiver;

    @BeforeEach
    void subscribe() {
        series = new Series(merchants.create().test(), checkout);
        receiver = WebhookReceiver.start();
        JsonNode endpoint = Collect.expect(201, series.api.post("/webhook_endpoints", "{\"url\":\""
                + receiver.url("/series") + "\",\"enabled_events\":[\"mandate.created\",\"mandate.cancelled\","
                + "\"mandate.completed\",\"mandate.payment_upcoming\",\"subscription.created\","
                + "\"subscription.updated\",\"subscription.cancelled\",\"payment.failed\"]}").send());
        receiver.secrets(endpoint.get("secret").stringValue());
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    @Test
    void aSubscriptionsLifeArrivesSignedWithTheObjectsAsGetShowsThem() {
        JsonNode subscription = series.subscription(series.customer(), 9900, "\"interval\":\"monthly\","
                + "\"notice_days\":2", SandboxProcessor.LATER_INSUFFICIENT_FUNDS);
        String id = subscription.get("id").stringValue();
        LocalDate due = LocalDate.now(ZoneId.of("Africa/Johannesburg")).plusMonths(1);
        Collect.expect(200, series.api.post("/collect/test_helpers/subscriptions/" + id + "/advance",
                "{\"to\":\"" + due + "\"}").send());
        Collect.expect(200, series.api.post("/collect/subscriptions/" + id + "/cancel", null).send());

        List<Received> received = receiver.await(list -> list.size() >= 7, Duration.ofSeconds(30), "seven webhooks");

        assertThat(received).allSatisfy(r -> assertThat(r.signatureValid()).isTrue());
        assertThat(received).extracting(r -> r.json().get("type").stringValue()).containsExactlyInAnyOrder(
                "mandate.created", "subscription.created", "mandate.payment_upcoming", "payment.failed",
                "subscription.updated", "subscription.cancelled", "mandate.cancelled");
        JsonNode upcoming = data(received, "mandate.payment_upcoming");
        assertThat(upcoming.get("date").stringValue()).isEqualTo(due.toString());
        assertThat(upcoming.get("amount").longValue()).isEqualTo(9900);
        assertThat(upcoming.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(upcoming.get("subscription_id").stringValue()).isEqualTo(id);
        JsonNode failed = data(received, "payment.failed");
        assertThat(failed.get("will_retry").booleanValue()).isTrue();
        assertThat(failed.get("next_retry_at").stringValue()).isNotBlank();
        assertThat(failed).isEqualTo(series.collect.get("/collect/payments/" + failed.get("id").stringValue()));
        assertThat(data(received, "subscription.updated").get("status").stringValue()).isEqualTo("past_due");
        assertThat(data(received, "subscription.cancelled"))
                .isEqualTo(series.collect.get("/collect/subscriptions/" + id));
        assertThat(data(received, "mandate.cancelled"))
                .isEqualTo(series.collect.get("/collect/mandates/" + subscription.get("mandate_id").stringValue()));
    }

    private static JsonNode data(List<Received> received, String type) {
        return received.stream().map(Received::json).filter(j -> j.get("type").stringValue().equals(type))
                .findFirst().orElseThrow().get("data");
    }
}
