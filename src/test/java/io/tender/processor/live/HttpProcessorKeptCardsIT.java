package io.tender.processor.live;

import io.tender.processor.PaymentMethodInput;
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
 * The live adapter's kept cards (docs/processor-protocol.md, decisions §8) against WireMock: a first_in_series
 * authorize asks with {@code store_method: true}, the approval's {@code method_token} reaches Tender, a later charge
 * sends only {@code card.token}, and a token that is not 1 to 255 characters makes the answer malformed: unknown, and
 * never sent again.
 */
class HttpProcessorKeptCardsIT extends LiveProvidersIntegrationTest {

    private static final String KEY = "pay_0193a1b2c3d4e5f6:authorize";
    private static final PaymentMethodInput.Card CARD = new PaymentMethodInput.Card("4242424242424242", 12, 2040, "123");
    private static final String APPROVED = """
            {"result":"approved","amount":9900,"currency":"ZAR","funding":"CREDIT",
             "reference":{"processor_reference":"p_1"},"method_token":"%s"}""";

    @Autowired
    private LiveProcessor live;

    private PaymentProcessor processor;

    @BeforeEach
    void processor() {
        processor = live.processor().orElseThrow();
    }

    @Test
    void aFirstInSeriesAuthorizeSendsStoreMethodWithTheCardAndReadsTheMethodTokenOfTheApproval() {
        PROVIDER.stubFor(post("/processor/authorize").willReturn(okJson(APPROVED.formatted("tok_live_1"))));

        ProcessorOutcome outcome = processor.authorize(new PaymentProcessor.Authorize(KEY, 9900, "ZAR", CARD, true,
                "https://tender.example/checkout/ckt_1/return", true));

        assertThat(outcome).isEqualTo(new ProcessorOutcome.Approved(9900, "ZAR", "CREDIT",
                Map.of("processor_reference", "p_1"), "tok_live_1"));
        assertThat(outcome.toString()).doesNotContain("tok_live_1");
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/authorize"))
                .withHeader("Idempotency-Key", equalTo(KEY))
                .withRequestBody(equalToJson("""
                        {"operation_key":"%s","amount":9900,"currency":"ZAR","capture":true,
                         "return_url":"https://tender.example/checkout/ckt_1/return","store_method":true,
                         "method":{"type":"card","card":{"number":"4242424242424242","exp_month":12,"exp_year":2040,
                                   "security_code":"123"}}}""".formatted(KEY))));
    }

    @Test
    void anAuthorizeThatDoesNotAskToKeepTheCardSendsNoStoreMethodAndAnApprovalWithoutATokenHasNone() {
        PROVIDER.stubFor(post("/processor/authorize").willReturn(okJson("""
                {"result":"approved","amount":9900,"currency":"ZAR","reference":{}}""")));

        ProcessorOutcome outcome = processor.authorize(new PaymentProcessor.Authorize(KEY, 9900, "ZAR", CARD, true, null));

        assertThat(outcome).isInstanceOfSatisfying(ProcessorOutcome.Approved.class,
                a -> assertThat(a.methodToken()).isNull());
        // Strict: no store_method field at all (nor return_url).
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/authorize")).withRequestBody(equalToJson("""
                {"operation_key":"%s","amount":9900,"currency":"ZAR","capture":true,
                 "method":{"type":"card","card":{"number":"4242424242424242","exp_month":12,"exp_year":2040,
                           "security_code":"123"}}}""".formatted(KEY))));
    }

    @Test
    void aKeptCardIsChargedByItsTokenAloneWithoutNumberOrSecurityCode() {
        PROVIDER.stubFor(post("/processor/authorize").willReturn(okJson("""
                {"result":"approved","amount":4500,"currency":"ZAR","funding":"DEBIT","reference":{}}""")));

        ProcessorOutcome outcome = processor.authorize(new PaymentProcessor.Authorize(KEY, 4500, "ZAR",
                new PaymentMethodInput.Saved("tok_live_1"), true, null));

        assertThat(outcome).isEqualTo(new ProcessorOutcome.Approved(4500, "ZAR", "DEBIT", Map.of(), null));
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/authorize"))
                .withHeader("Idempotency-Key", equalTo(KEY))
                .withRequestBody(equalToJson("""
                        {"operation_key":"%s","amount":4500,"currency":"ZAR","capture":true,
                         "method":{"type":"card","card":{"token":"tok_live_1"}}}""".formatted(KEY))));
    }

    @Test
    void aKeptCardDeclinedAuthenticationRequiredIsDeclinedWithTheProcessorsCodes() {
        PROVIDER.stubFor(post("/processor/authorize").willReturn(aResponse().withStatus(422)
                .withHeader("Content-Type", "application/json").withBody("""
                        {"result":"declined","error_code":"authentication_required",
                         "decline_code":"authentication_required","message":"The customer must authenticate"}""")));

        assertThat(processor.authorize(new PaymentProcessor.Authorize(KEY, 4500, "ZAR",
                new PaymentMethodInput.Saved("tok_live_1"), true, null)))
                .isEqualTo(new ProcessorOutcome.Declined("authentication_required", "authentication_required",
                        "The customer must authenticate"));
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/authorize")));
    }

    @Test
    void aKeptCardAnsweredActionRequiredIsDeclinedAuthenticationRequiredAndNothingMoreIsSent() {
        // Outside the protocol: nobody is there to authenticate, whether or not the processor names a page.
        for (String answer : new String[]{
                "{\"result\":\"action_required\",\"action\":\"three_d_secure\"}",
                "{\"result\":\"action_required\",\"action\":\"three_d_secure\",\"redirect_url\":\"https://acs.example/c/1\"}"}) {
            PROVIDER.resetAll();
            PROVIDER.stubFor(post("/processor/authorize").willReturn(aResponse().withStatus(202)
                    .withHeader("Content-Type", "application/json").withBody(answer)));

            assertThat(processor.authorize(new PaymentProcessor.Authorize(KEY, 4500, "ZAR",
                    new PaymentMethodInput.Saved("tok_live_1"), true, null))).as(answer)
                    .isInstanceOfSatisfying(ProcessorOutcome.Declined.class, d -> {
                        assertThat(d.errorCode()).isEqualTo("authentication_required");
                        assertThat(d.declineCode()).isEqualTo("authentication_required");
                    });
            PROVIDER.verify(1, postRequestedFor(urlPathMatching("/processor/.*")));
            PROVIDER.verify(0, getRequestedFor(urlPathMatching("/processor/.*")));
        }
    }

    @Test
    void aMethodTokenOfExactly255CharactersIsRead() {
        String token = "t".repeat(255);
        PROVIDER.stubFor(post("/processor/authorize").willReturn(okJson(APPROVED.formatted(token))));

        assertThat(processor.authorize(firstInSeries()))
                .isInstanceOfSatisfying(ProcessorOutcome.Approved.class,
                        a -> assertThat(a.methodToken()).isEqualTo(token));
    }

    @Test
    void anApprovalWithAnEmptyOrOverlongMethodTokenIsMalformedSoItsOutcomeIsUnknownAndTheAuthorizeIsNotSentAgain() {
        for (String token : new String[]{"", "t".repeat(256)}) {
            PROVIDER.resetAll();
            PROVIDER.stubFor(post("/processor/authorize").willReturn(okJson(APPROVED.formatted(token))));

            ProcessorOutcome outcome = processor.authorize(firstInSeries());

            assertThat(outcome).as("%d characters", token.length())
                    .isInstanceOfSatisfying(ProcessorOutcome.Unknown.class, u -> {
                        assertThat(u.message()).contains("method_token");
                        if (!token.isEmpty()) {
                            assertThat(u.message()).doesNotContain(token);
                        }
                    });
            PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/authorize")));
        }
    }

    @Test
    void theStatusOfAnApprovalThatKeptTheCardCarriesItsToken() {
        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*"))
                .willReturn(okJson(APPROVED.formatted("tok_live_2"))));

        assertThat(processor.status(KEY)).isInstanceOfSatisfying(ProcessorOutcome.Approved.class,
                a -> assertThat(a.methodToken()).isEqualTo("tok_live_2"));
    }

    @Test
    void aStatusAnswerWithAnOverlongMethodTokenIsAskedAgainThenUnknown() {
        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*"))
                .willReturn(okJson(APPROVED.formatted("t".repeat(256)))));

        assertThat(processor.status(KEY)).isInstanceOf(ProcessorOutcome.Unknown.class);
        // read-attempts=2 in this context: the question is safe to repeat, the money-moving call is not.
        PROVIDER.verify(2, getRequestedFor(urlPathMatching("/processor/operations/.*")));
    }

    private static PaymentProcessor.Authorize firstInSeries() {
        return new PaymentProcessor.Authorize(KEY, 9900, "ZAR", CARD, true, null, true);
    }
}
