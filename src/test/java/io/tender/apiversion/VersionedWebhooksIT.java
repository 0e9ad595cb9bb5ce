package io.tender.apiversion;

import io.tender.checkout.Checkout;
import io.tender.processor.sandbox.SandboxProcessor;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Vouchers;
import io.tender.support.WebhookReceiver;
import io.tender.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Events in versions (decisions §15): two webhook endpoints of one merchant on two versions receive the same event,
 * each in its own shape under its own {@code Tender-Version}, each signed over the bytes it received; a PATCH moves an
 * endpoint to another version; {@code GET /events} renders in the request's version. Stored events stay newest.
 */
class VersionedWebhooksIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;

    private Api api;
    private WebhookReceiver old;
    private WebhookReceiver current;

    @BeforeEach
    void receivers() {
        api = merchants.create().test();
        old = WebhookReceiver.start();
        current = WebhookReceiver.start();
    }

    @AfterEach
    void stop() {
        old.close();
        current.close();
    }

    /** An endpoint for payment.succeeded made in {@code version} (null: the merchant's, the newest). */
    private JsonNode endpoint(WebhookReceiver receiver, String version) {
        Api.Request request = api.post("/webhook_endpoints", "{\"url\":\"" + receiver.url("/hooks")
                + "\",\"enabled_events\":[\"payment.succeeded\"]}");
        Api.Response created = (version == null ? request : request.header("Tender-Version", version)).send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        receiver.secrets(created.json().get("secret").stringValue());
        return created.json();
    }

    private String payByBank() {
        Api.Response session = api.post("/collect/payment_sessions", "{\"amount\":7000,\"currency\":\"ZAR\"}").send();
        String ckt = session.json().get("checkout_session_id").stringValue();
        String payment = checkout.payByBank(ckt, "Capitec").paymentId();
        checkout.decideSandbox(ckt, SandboxProcessor.Decision.APPROVE).orElseThrow();
        return payment;
    }

    private static Received one(WebhookReceiver receiver, String paymentId) {
        return receiver.await(list -> list.stream().anyMatch(r -> r.json().at("/data/id").stringValue().equals(paymentId)),
                        Duration.ofSeconds(30), "payment.succeeded of " + paymentId).stream()
                .filter(r -> r.json().at("/data/id").stringValue().equals(paymentId)).findFirst().orElseThrow();
    }

    @Test
    void twoEndpointsOnTwoVersionsReceiveTheSameEventInTheirOwnShapesEachSignedOverItsOwnBytes() {
        JsonNode oldEndpoint = endpoint(old, "2026-03-13");
        JsonNode currentEndpoint = endpoint(current, null);
        assertThat(oldEndpoint.get("api_version").stringValue()).isEqualTo("2026-03-13");
        assertThat(currentEndpoint.get("api_version").stringValue()).isEqualTo("2026-06-01");

        String payment = payByBank();
        Received inOld = one(old, payment);
        Received inCurrent = one(current, payment);

        assertThat(inOld.webhookId()).isEqualTo(inCurrent.webhookId());
        assertThat(inOld.signatureValid()).isTrue();
        assertThat(inCurrent.signatureValid()).isTrue();
        assertThat(inOld.apiVersion()).isEqualTo("2026-03-13");
        assertThat(inCurrent.apiVersion()).isEqualTo("2026-06-01");
        assertThat(inOld.json().at("/data/payment_method_details/type").stringValue()).isEqualTo("instant_eft");
        assertThat(inOld.json().at("/data/payment_method_details/instant_eft/bank").stringValue()).isEqualTo("Capitec");
        assertThat(inCurrent.json().at("/data/payment_method_details/type").stringValue()).isEqualTo("pay_by_bank");
        assertThat(inCurrent.json().at("/data/payment_method_details/pay_by_bank/bank").stringValue()).isEqualTo("Capitec");
        // The same event otherwise: its envelope and the rest of its payload.
        assertThat(inOld.json().propertyNames()).containsExactly("id", "type", "created_at", "data");
        assertThat(inOld.json().get("created_at")).isEqualTo(inCurrent.json().get("created_at"));
        assertThat(inOld.json().at("/data/amount")).isEqualTo(inCurrent.json().at("/data/amount"));
        // Each payload is what the event log shows in that endpoint's version.
        String event = inOld.webhookId();
        assertThat(api.get("/events/" + event).header("Tender-Version", "2026-03-13").send().json())
                .isEqualTo(inOld.json());
        assertThat(api.get("/events/" + event).send().json()).isEqualTo(inCurrent.json());
        assertThat(api.get("/events?type=payment.succeeded").header("Tender-Version", "2026-03-16").send().json()
                .at("/data/0/data/payment_method_details/type").stringValue()).isEqualTo("instant_eft");
        // The stored event is the newest shape.
        assertThat(jdbc.sql("select payload->'data'->'payment_method_details'->>'type' from outbox where id = ?")
                .param(event).query(String.class).single()).isEqualTo("pay_by_bank");
    }

    @Test
    void aPatchMovesAnEndpointToAnotherVersionAndItsNextEventsFollow() {
        JsonNode endpoint = endpoint(old, "2026-03-13");
        String path = "/webhook_endpoints/" + endpoint.get("id").stringValue();
        assertBadRequest(api.patch(path, "{\"api_version\":\"2026-03-14\"}").send(), "api_version");
        assertBadRequest(api.patch(path, "{\"api_version\":null}").send(), "api_version");

        Api.Response moved = api.patch(path, "{\"api_version\":\"2026-06-01\"}").header("Tender-Version", "2026-03-13")
                .send();
        assertThat(moved.status()).as(moved.toString()).isEqualTo(200);
        assertThat(moved.json().get("api_version").stringValue()).isEqualTo("2026-06-01");
        assertThat(api.get(path).send().json().get("api_version").stringValue()).isEqualTo("2026-06-01");

        Received next = one(old, payByBank());
        assertThat(next.apiVersion()).isEqualTo("2026-06-01");
        assertThat(next.signatureValid()).isTrue();
        assertThat(next.json().at("/data/payment_method_details/type").stringValue()).isEqualTo("pay_by_bank");
    }

    @Test
    void eventsNoChangeTouchesArriveAsTheyAreStoredByteForByteInEveryVersion() {
        // No version change touches redemption.* events: an endpoint on the oldest version gets the very bytes an
        // endpoint on the newest gets, each signed for its own endpoint and labelled with its own version.
        for (var pair : List.of(Map.entry(old, "2026-03-13"), Map.entry(current, "2026-06-01"))) {
            Api.Response created = api.post("/webhook_endpoints", "{\"url\":\"" + pair.getKey().url("/hooks")
                    + "\",\"enabled_events\":[\"redemption.confirmed\"]}").header("Tender-Version", pair.getValue()).send();
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            pair.getKey().secrets(created.json().get("secret").stringValue());
        }
        Api.Response redemption = api.post("/collect/redemptions", Vouchers.oneVoucher(Vouchers.validPin()))
                .idempotencyKey(UUID.randomUUID().toString()).send();
        assertThat(redemption.status()).as(redemption.toString()).isEqualTo(201);

        Received inOld = old.await(list -> !list.isEmpty(), Duration.ofSeconds(30), "redemption.confirmed").getFirst();
        Received inCurrent = current.await(list -> !list.isEmpty(), Duration.ofSeconds(30), "redemption.confirmed")
                .getFirst();
        assertThat(inOld.webhookId()).isEqualTo(inCurrent.webhookId());
        assertThat(inOld.body()).as("the same bytes in both versions").isEqualTo(inCurrent.body());
        assertThat(inOld.apiVersion()).isEqualTo("2026-03-13");
        assertThat(inCurrent.apiVersion()).isEqualTo("2026-06-01");
        assertThat(inOld.signatureValid()).isTrue();
        assertThat(inCurrent.signatureValid()).isTrue();
        String stored = jdbc.sql("select payload::text from outbox where id = ?").param(inOld.webhookId())
                .query(String.class).single();
        assertThat(inOld.json().get("data")).as("the event as stored").isEqualTo(Api.JSON.readTree(stored).get("data"));
    }
}
