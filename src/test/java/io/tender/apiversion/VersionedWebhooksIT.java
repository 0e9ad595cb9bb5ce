package io.tender.apiversion;

import io.tender.checkout.Checkout;
import io.tender.processor.sandbox.SandboxProcessor;
import io.tender.support.Api;
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
    void eventsNoChangeTouchesArriveAsTheyAreStored() {
        Api.Response created = api.post("/webhook_endpoints", "{\"url\":\"" + old.url("/hooks")
                + "\",\"enabled_events\":[\"payment_request.created\"]}").header("Tender-Version", "2026-03-13").send();
        old.secrets(created.json().get("secret").stringValue());
        Api.Response request = api.post("/collect/payment_requests", "{\"amount\":1200,\"currency\":\"ZAR\","
                + "\"visible_payment_methods\":[\"card\"]}").send();
        assertThat(request.status()).as(request.toString()).isEqualTo(201);
        List<Received> received = old.await(list -> !list.isEmpty(), Duration.ofSeconds(30), "payment_request.created");
        String event = received.getFirst().webhookId();
        String stored = jdbc.sql("select payload::text from outbox where id = ?").param(event).query(String.class).single();
        assertThat(received.getFirst().json().get("data")).isEqualTo(Api.JSON.readTree(stored).get("data"));
        assertThat(received.getFirst().apiVersion()).isEqualTo("2026-03-13");
    }
}
