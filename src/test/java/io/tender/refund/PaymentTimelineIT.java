package io.tender.refund;

import io.tender.checkout.Checkout;
import io.tender.payment.Collect;
import io.tender.auth.Mode;
import io.tender.processor.sandbox.SandboxProcessor;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants;
import io.tender.support.WebhookReceiver;
import io.tender.webhook.WebhookDeliveryLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A payment's timeline for its dashboard page (decisions §11), after paying through the checkout and refunding over
 * the API: the attempt, the refund and the events in time order, each event with its webhook deliveries as they
 * ended (one endpoint answering 500 to {@code refund.created}); nothing for another merchant, the other mode or an
 * unknown id.
 */
class PaymentTimelineIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;
    @Autowired
    private PaymentTimeline timeline;

    private Merchants.Merchant merchant;
    private Collect collect;
    private WebhookReceiver receiver;

    @BeforeEach
    void subscribe() {
        merchant = merchants.create();
        collect = new Collect(merchant.test(), checkout);
        receiver = WebhookReceiver.start().respond(r -> r.type().equals("refund.created") ? 500 : 200);
        JsonNode endpoint = Collect.expect(201, collect.api.post("/webhook_endpoints", "{\"url\":\""
                + receiver.url("/hooks") + "\",\"enabled_events\":[\"payment.succeeded\",\"refund.created\","
                + "\"refund.succeeded\"]}").send());
        receiver.secrets(endpoint.get("secret").stringValue());
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    @Test
    void aPaidAndRefundedPaymentShowsItsAttemptRefundAndEventsWithEachDeliveryInTimeOrder() {
        JsonNode session = collect.session(9000);
        String ckt = session.get("checkout_session_id").stringValue();
        checkout.payByBank(ckt, "Sandbox Bank");
        String paymentId = checkout.decideSandbox(ckt, SandboxProcessor.Decision.APPROVE).orElseThrow().paymentId();
        String refundId = Collect.expect(201, collect.api.post("/collect/payments/" + paymentId + "/refunds",
                "{\"amount\":3000}").send()).get("id").stringValue();

        List<PaymentTimeline.Entry> entries = await().atMost(Duration.ofSeconds(30)).until(
                () -> timeline.of(merchant.id(), Mode.TEST, paymentId), PaymentTimelineIT::deliveriesEnded);

        assertThat(entries.getFirst()).isInstanceOfSatisfying(PaymentTimeline.Operation.class, attempt -> {
            assertThat(attempt.type()).isEqualTo("authorize");
            assertThat(attempt.status()).isEqualTo("succeeded");
            assertThat(attempt.amount()).isEqualTo(9000);
        });
        assertThat(entries).extracting(PaymentTimeline.Entry::at).isSorted();
        assertThat(entries).filteredOn(PaymentTimeline.RefundMade.class::isInstance)
                .map(PaymentTimeline.RefundMade.class::cast).singleElement()
                .extracting(PaymentTimeline.RefundMade::refundId, PaymentTimeline.RefundMade::amount,
                        PaymentTimeline.RefundMade::status, PaymentTimeline.RefundMade::failureReason)
                .containsExactly(refundId, 3000L, "succeeded", null);
        List<PaymentTimeline.Event> events = entries.stream().filter(PaymentTimeline.Event.class::isInstance)
                .map(PaymentTimeline.Event.class::cast).toList();
        assertThat(events).extracting(PaymentTimeline.Event::type)
                .containsSubsequence("payment.succeeded", "refund.created", "refund.succeeded");
        assertThat(delivery(events, "payment.succeeded")).satisfies(d -> {
            assertThat(d.status()).isEqualTo("succeeded");
            assertThat(d.lastResponseStatus()).isEqualTo(200);
            assertThat(d.url()).isEqualTo(receiver.url("/hooks"));
        });
        assertThat(delivery(events, "refund.created")).satisfies(d -> {
            assertThat(d.status()).isEqualTo("failed");
            assertThat(d.lastResponseStatus()).isEqualTo(500);
            assertThat(d.attempts()).isGreaterThan(1);
        });
        assertThat(delivery(events, "refund.succeeded").status()).isEqualTo("succeeded");

        assertThat(timeline.of(merchants.create().id(), Mode.TEST, paymentId)).isEmpty();
        assertThat(timeline.of(merchant.id(), Mode.LIVE, paymentId)).isEmpty();
        assertThat(timeline.of(merchant.id(), Mode.TEST, "pay_000000000000000000000000")).isEmpty();
    }

    private static WebhookDeliveryLog.Delivery delivery(List<PaymentTimeline.Event> events, String type) {
        return events.stream().filter(e -> e.type().equals(type)).findFirst().orElseThrow().deliveries()
                .stream().findFirst().orElseThrow(() -> new AssertionError("no delivery of " + type));
    }

    /** Every subscribed event has been delivered or has failed for good. */
    private static boolean deliveriesEnded(List<PaymentTimeline.Entry> entries) {
        List<PaymentTimeline.Event> subscribed = entries.stream().filter(PaymentTimeline.Event.class::isInstance)
                .map(PaymentTimeline.Event.class::cast)
                .filter(e -> List.of("payment.succeeded", "refund.created", "refund.succeeded").contains(e.type()))
                .toList();
        return subscribed.size() == 3 && subscribed.stream().allMatch(e -> !e.deliveries().isEmpty()
                && e.deliveries().stream().noneMatch(d -> d.status().equals("pending")));
    }
}
