package io.tender.payment;

import io.tender.checkout.Checkout;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Manual capture (decisions §6 "Captures and voids"): a successful authorization leaves the payment {@code succeeded}
 * and the session {@code reserved}; partial captures repeat while they fit; a void releases the rest ({@code cancelled}
 * when nothing was captured); the live product's 409 texts; {@code If-Match}; idempotent replays; an expired
 * authorization is refused and released by the recovery job.
 */
class CapturesAndVoidsIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;

    @Autowired
    private PaymentRecovery recovery;
    @Autowired
    private io.tender.settlement.Janitor janitor;

    private Api api;
    private Collect collect;

    @BeforeEach
    void merchant() {
        api = merchants.create().test();
        collect = new Collect(api, checkout);
    }

    private JsonNode authorized(long amount) {
        JsonNode session = collect.manualSession(amount);
        Checkout.Attempt attempt = collect.payByCard(session, "4242424242424242");
        assertThat(collect.refreshed(session).get("payment_outcome").stringValue()).isEqualTo("reserved");
        return collect.payment(attempt);
    }

    private Api.Response capture(JsonNode payment, String body) {
        return api.post("/collect/payments/" + payment.get("id").stringValue() + "/captures", body).send();
    }

    @Test
    void anAuthorizationSucceedsWithNothingPaidAndExpiresInSevenDays() {
        JsonNode payment = authorized(10000);
        assertThat(payment.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(payment.get("capture_method").stringValue()).isEqualTo("manual");
        assertThat(payment.get("authorized_amount").longValue()).isEqualTo(10000);
        assertThat(payment.get("paid_amount").longValue()).isZero();
        assertThat(payment.get("voided_amount").longValue()).isZero();
        assertThat(Duration.between(Instant.parse(payment.get("updated_at").stringValue()),
                Instant.parse(payment.get("authorization_expires_at").stringValue()))).isEqualTo(Duration.ofDays(7));
    }

    @Test
    void partialCapturesRepeatWhileTheyFitThenTheRestIsRefused() {
        JsonNode payment = authorized(10000);
        String id = payment.get("id").stringValue();
        JsonNode first = Collect.expect(200, capture(payment, "{\"amount\":3000,\"metadata\":{\"shipment\":\"1\"}}"));
        assertThat(first.get("paid_amount").longValue()).isEqualTo(3000);
        assertThat(first.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(first.get("metadata").get("shipment").stringValue()).isEqualTo("1");
        assertThat(first.get("version").intValue()).isEqualTo(payment.get("version").intValue() + 1);

        assertThat(assertProblem(capture(payment, "{\"amount\":7001}"), 409, "invalid_state_transition")
                .get("detail").stringValue()).isEqualTo("capture amount exceeds the remaining authorised amount");
        JsonNode rest = Collect.expect(200, capture(payment, "{}"));
        assertThat(rest.get("paid_amount").longValue()).isEqualTo(10000);
        assertThat(rest.get("authorized_amount").longValue()).isEqualTo(10000);
        assertThat(assertProblem(capture(payment, "{\"amount\":1}"), 409, "invalid_state_transition")
                .get("detail").stringValue()).isEqualTo("not in an authorised state");
        assertThat(assertProblem(api.post("/collect/payments/" + id + "/voids", "{}").send(), 409,
                "invalid_state_transition").get("detail").stringValue()).isEqualTo("no remaining authorised amount to void");
        assertThat(jdbc.sql("select count(*) from sandbox_processor_operations where authorization_key = ? and kind = 'capture'")
                .param(id + ":authorize").query(Long.class).single()).isEqualTo(2);
    }

    @Test
    void aVoidReleasesTheRestAndCancelsAPaymentWithNothingCaptured() {
        JsonNode untouched = authorized(5000);
        JsonNode cancelled = Collect.expect(200, api.post("/collect/payments/" + untouched.get("id").stringValue()
                + "/voids", "{\"metadata\":{\"reason\":\"out of stock\"}}").send());
        assertThat(cancelled.get("status").stringValue()).isEqualTo("cancelled");
        assertThat(cancelled.get("voided_amount").longValue()).isEqualTo(5000);
        assertThat(cancelled.get("metadata").get("reason").stringValue()).isEqualTo("out of stock");

        JsonNode partly = authorized(5000);
        Collect.expect(200, capture(partly, "{\"amount\":2000}"));
        JsonNode voided = Collect.expect(200, api.post("/collect/payments/" + partly.get("id").stringValue() + "/voids",
                "{}").send());
        assertThat(voided.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(voided.get("paid_amount").longValue()).isEqualTo(2000);
        assertThat(voided.get("voided_amount").longValue()).isEqualTo(3000);
        assertThat(assertProblem(capture(partly, "{}"), 409, "invalid_state_transition").get("detail").stringValue())
                .isEqualTo("not in an authorised state");
    }

    @Test
    void automaticAndFailedPaymentsCannotBeCapturedOrVoided() {
        JsonNode automatic = collect.payment(collect.payByCard(collect.session(100), "4242424242424242"));
        assertThat(assertProblem(capture(automatic, "{}"), 409, "invalid_state_transition").get("detail").stringValue())
                .isEqualTo("not in an authorised state");
        JsonNode failed = collect.payment(collect.payByCard(collect.manualSession(100), "4000000000000002"));
        assertProblem(api.post("/collect/payments/" + failed.get("id").stringValue() + "/voids", "{}").send(), 409,
                "invalid_state_transition");
        assertProblem(api.post("/collect/payments/pay_000000000000000000000000/captures", "{}").send(), 404,
                "payment_not_found");
    }

    @Test
    void ifMatchGuardsAgainstAStaleVersionAndBadBodiesAre400() {
        JsonNode payment = authorized(4000);
        String path = "/collect/payments/" + payment.get("id").stringValue() + "/captures";
        assertProblem(api.post(path, "{\"amount\":100}").header("If-Match", "\"99\"").send(), 409, "conflict");
        JsonNode captured = Collect.expect(200, api.post(path, "{\"amount\":100}")
                .header("If-Match", "\"" + payment.get("version").intValue() + "\"").send());
        assertThat(captured.get("paid_amount").longValue()).isEqualTo(100);
        assertBadRequest(api.post(path, "{\"amount\":0}").send(), "amount");
        assertBadRequest(api.post(path, "{\"amount\":1,\"surprise\":true}").send(), "surprise");
        assertBadRequest(api.post(path, "{}").header("If-Match", "two").send(), "If-Match");
        assertThat(collect.get("/collect/payments/" + payment.get("id").stringValue()).get("paid_amount").longValue())
                .isEqualTo(100);
    }

    @Test
    void aKeyedCaptureIsSentOnceAndReplaysByteForByte() {
        JsonNode payment = authorized(4000);
        String path = "/collect/payments/" + payment.get("id").stringValue() + "/captures";
        var first = api.post(path, "{\"amount\":1500}").idempotencyKey("cap-1").send();
        var again = api.post(path, "{\"amount\":1500}").idempotencyKey("cap-1").send();
        assertThat(first.status()).isEqualTo(200);
        assertThat(again.bytes()).isEqualTo(first.bytes());
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(collect.get("/collect/payments/" + payment.get("id").stringValue()).get("paid_amount").longValue())
                .isEqualTo(1500);
    }

    @Test
    void anExpiredAuthorizationIsRefusedAndReleasedByTheRecoveryJob() {
        JsonNode payment = authorized(6000);
        String id = payment.get("id").stringValue();
        Collect.expect(200, capture(payment, "{\"amount\":1000}"));
        jdbc.sql("update payments set authorization_expires_at = now() - interval '1 minute' where id = ?").param(id).update();
        assertThat(assertProblem(capture(payment, "{}"), 409, "invalid_state_transition").get("detail").stringValue())
                .isEqualTo("authorisation has expired");

        janitor.runOnce(recovery);

        JsonNode released = collect.get("/collect/payments/" + id);
        assertThat(released.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(released.get("paid_amount").longValue()).isEqualTo(1000);
        assertThat(released.get("voided_amount").longValue()).isEqualTo(5000);
        assertThat(PaymentEventsIT.types(jdbc, id)).endsWith("payment.captured", "payment.voided");
    }
}
