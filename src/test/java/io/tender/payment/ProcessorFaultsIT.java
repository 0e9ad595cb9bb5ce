package io.tender.payment;

import io.tender.checkout.Checkout;
import com.github.tomakehurst.wiremock.client.WireMock;
import io.tender.support.Api;
import io.tender.support.LiveProvidersIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Live mode against a misbehaving processor (WireMock speaking docs/processor-protocol.md): unknown outcomes are
 * resolved by the status query and never by resending; what stays unknown answers 504 and is finished by the
 * recovery job, which completes the waiting Idempotency-Key; a capture the processor never received goes again
 * under a fresh key.
 */
class ProcessorFaultsIT extends LiveProvidersIntegrationTest {

    private static final String APPROVED = "{\"result\":\"approved\",\"amount\":%d,\"currency\":\"ZAR\",\"funding\":\"CREDIT\",\"reference\":{}}";

    @Autowired
    private Checkout checkout;

    private Api api;
    private Collect collect;

    @BeforeEach
    void merchant() {
        api = merchants.create().live();
        collect = new Collect(api, checkout);
    }

    @Test
    void anAuthorizationWithoutAnAnswerSucceedsByItsStatusAndIsSentOnce() {
        PROVIDER.stubFor(post("/processor/authorize").willReturn(aResponse().withStatus(503)));
        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*")).willReturn(okJson(APPROVED.formatted(2500))));
        JsonNode session = collect.session(2500);

        Checkout.Attempt attempt = collect.payByCard(session, "4242424242424242");

        assertThat(attempt.status()).isEqualTo("succeeded");
        assertThat(collect.payment(attempt).get("mode").stringValue()).isEqualTo("live");
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/authorize"))
                .withHeader("Idempotency-Key", equalTo(attempt.paymentId() + ":authorize")));
        assertThat(collect.refreshed(session).get("payment_outcome").stringValue()).isEqualTo("paid");
    }

    @Test
    void aCaptureThatStaysUnknownAnswers504AndTheRecoveryJobCompletesItsKey() {
        JsonNode payment = authorized(6000);
        String id = payment.get("id").stringValue();
        PROVIDER.stubFor(post("/processor/capture").willReturn(aResponse().withStatus(503)));
        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*")).willReturn(aResponse().withStatus(503)));
        String path = "/collect/payments/" + id + "/captures";

        assertProblem(api.post(path, "{\"amount\":2000}").idempotencyKey("cap-x").send(), 504, "request_timeout");
        assertProblem(api.post(path, "{\"amount\":2000}").idempotencyKey("cap-x").send(), 409, "conflict");
        assertThat(collect.get("/collect/payments/" + id).get("paid_amount").longValue()).isZero();

        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/" + id + "(:|%3A)capture"))
                .willReturn(okJson(APPROVED.formatted(2000))));
        await().atMost(Duration.ofSeconds(15)).until(() ->
                api.post(path, "{\"amount\":2000}").idempotencyKey("cap-x").send().status() == 200);
        var replay = api.post(path, "{\"amount\":2000}").idempotencyKey("cap-x").send();
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.json().get("paid_amount").longValue()).isEqualTo(2000);
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/capture")));
    }

    @Test
    void aCaptureSentWithoutADefiniteAnswerIsStoredAsUnknownAndOnlyItIsAskedAfter() {
        JsonNode payment = authorized(5000);
        String id = payment.get("id").stringValue();
        PROVIDER.stubFor(post("/processor/capture").willReturn(aResponse().withStatus(503)));
        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*")).willReturn(aResponse().withStatus(503)));

        assertProblem(api.post("/collect/payments/" + id + "/captures", "{}").send(), 504, "request_timeout");

        // An operator reading the row sees that the capture went out and money may have moved: unknown, not pending.
        assertThat(operationStatuses(id)).containsExactly("AUTHORIZE SUCCEEDED", "CAPTURE UNKNOWN");
        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/" + id + "(:|%3A)capture"))
                .willReturn(okJson(APPROVED.formatted(5000))));
        await().atMost(Duration.ofSeconds(15)).until(() -> operationStatuses(id).contains("CAPTURE SUCCEEDED"));
        assertThat(collect.get("/collect/payments/" + id).get("paid_amount").longValue()).isEqualTo(5000);
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/capture")));
    }

    private java.util.List<String> operationStatuses(String paymentId) {
        return jdbc.sql("select (o ->> 'type') || ' ' || (o ->> 'status') from payments,"
                + " jsonb_array_elements(operations) with ordinality as ops(o, n) where id = ? order by n")
                .param(paymentId).query(String.class).list();
    }

    @Test
    void aCaptureTheProcessorNeverReceivedGoesAgainUnderAFreshKey() {
        JsonNode payment = authorized(4000);
        String id = payment.get("id").stringValue();
        PROVIDER.stubFor(post("/processor/capture").willReturn(aResponse().withStatus(503)));
        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*")).willReturn(aResponse().withStatus(503)));
        assertProblem(api.post("/collect/payments/" + id + "/captures", "{}").send(), 504, "request_timeout");

        PROVIDER.resetAll();
        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*")).willReturn(aResponse().withStatus(404)));
        PROVIDER.stubFor(post("/processor/capture").willReturn(okJson(APPROVED.formatted(4000))));
        await().atMost(Duration.ofSeconds(15)).until(() ->
                collect.get("/collect/payments/" + id).get("paid_amount").longValue() == 4000);
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/capture"))
                .withHeader("Idempotency-Key", equalTo(id + ":capture~2")));
        assertThat(PaymentEventsIT.types(jdbc, id)).endsWith("payment.captured");
    }

    private JsonNode authorized(long amount) {
        PROVIDER.stubFor(post("/processor/authorize").willReturn(okJson(APPROVED.formatted(amount))));
        Checkout.Attempt attempt = collect.payByCard(collect.manualSession(amount), "4242424242424242");
        assertThat(attempt.status()).isEqualTo("succeeded");
        return collect.payment(attempt);
    }
}
