package io.tender.processor.live;

import io.tender.processor.PaymentProcessor;
import io.tender.processor.ProcessorOutcome;
import io.tender.support.LiveProvidersIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live adapter's refund (docs/processor-protocol.md) against WireMock: {@code POST /refund} with the operation key
 * as the Idempotency-Key, sent once whatever the answer, and each answer read as the protocol says; {@code pending}
 * is an answer only a refund may give.
 */
class HttpProcessorRefundsIT extends LiveProvidersIntegrationTest {

    private static final String KEY = "rfd_0193a1b2c3d4e5f6:refund";
    private static final String AUTHORIZATION = "pay_0193a1b2c3d4e5f6:authorize";
    private static final PaymentProcessor.Refund REFUND = new PaymentProcessor.Refund(KEY, AUTHORIZATION, 2500, "ZAR");

    @Autowired
    private LiveProcessor live;

    private PaymentProcessor processor;

    @BeforeEach
    void processor() {
        processor = live.processor().orElseThrow();
    }

    @Test
    void postsTheRefundOnceWithItsOperationKeyAsTheIdempotencyKeyAndReadsAnApproval() {
        PROVIDER.stubFor(post("/processor/refund").willReturn(okJson("""
                {"result":"approved","amount":2500,"currency":"ZAR","reference":{"processor_reference":"r_1"}}""")));

        ProcessorOutcome outcome = processor.refund(REFUND);

        assertThat(outcome).isEqualTo(new ProcessorOutcome.Approved(2500, "ZAR", null,
                Map.of("processor_reference", "r_1")));
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/refund"))
                .withHeader("Idempotency-Key", equalTo(KEY))
                .withRequestBody(equalToJson("""
                        {"operation_key":"%s","authorization_key":"%s","amount":2500,"currency":"ZAR"}"""
                        .formatted(KEY, AUTHORIZATION))));
    }

    @Test
    void aRefundAnswered202PendingIsAcceptedAndItsStatusTellsWhenItIsDone() {
        PROVIDER.stubFor(post("/processor/refund").willReturn(aResponse().withStatus(202)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"result\":\"pending\",\"reference\":{\"processor_reference\":\"r_2\"}}")));
        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*")).willReturn(okJson(
                "{\"result\":\"pending\",\"reference\":{\"processor_reference\":\"r_2\"}}")));

        assertThat(processor.refund(REFUND))
                .isEqualTo(new ProcessorOutcome.Accepted(Map.of("processor_reference", "r_2")));
        assertThat(processor.status(KEY)).isInstanceOf(ProcessorOutcome.Accepted.class);

        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*")).willReturn(okJson(
                "{\"result\":\"approved\",\"amount\":2500,\"currency\":\"ZAR\",\"reference\":{}}")));
        assertThat(processor.status(KEY)).isInstanceOf(ProcessorOutcome.Approved.class);
        PROVIDER.verify(2, getRequestedFor(urlPathMatching("/processor/operations/rfd_0193a1b2c3d4e5f6(:|%3A)refund")));
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/refund")));
    }

    @Test
    void aRefundAnswered422IsDeclinedWithTheProcessorsCodes() {
        PROVIDER.stubFor(post("/processor/refund").willReturn(aResponse().withStatus(422)
                .withHeader("Content-Type", "application/json")
                .withBody("""
                        {"result":"declined","error_code":"refund_declined","decline_code":"declined","message":"No"}""")));

        assertThat(processor.refund(REFUND))
                .isEqualTo(new ProcessorOutcome.Declined("refund_declined", "declined", "No"));
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/refund")));
    }

    @Test
    void aRefundAnswered503IsUnknownAndNeverSentAgain() {
        PROVIDER.stubFor(post("/processor/refund").willReturn(aResponse().withStatus(503)));

        assertThat(processor.refund(REFUND)).isInstanceOf(ProcessorOutcome.Unknown.class);
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/refund")));
    }

    @Test
    void aCaptureAnsweredPendingIsUnknownBecauseOnlyARefundMayBeFinishedLater() {
        PROVIDER.stubFor(post("/processor/capture").willReturn(aResponse().withStatus(202)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"result\":\"pending\",\"reference\":{}}")));

        assertThat(processor.capture(new PaymentProcessor.Capture("pay_0193:capture", AUTHORIZATION, 2500, "ZAR")))
                .isInstanceOf(ProcessorOutcome.Unknown.class);
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/capture")));
    }

    @Test
    void anAuthorizationAnsweredPendingIsUnknownToo() {
        PROVIDER.stubFor(post("/processor/authorize").willReturn(aResponse().withStatus(202)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"result\":\"pending\",\"reference\":{}}")));

        assertThat(processor.authorize(new PaymentProcessor.Authorize("pay_0194:authorize", 2500, "ZAR",
                new io.tender.processor.PaymentMethodInput.Card("4242424242424242", 12, 2040, "123"), true, null)))
                .isInstanceOf(ProcessorOutcome.Unknown.class);
    }
}
