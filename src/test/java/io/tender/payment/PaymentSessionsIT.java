package io.tender.payment;

import io.tender.checkout.Checkout;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Payment sessions over HTTP (decisions §6): the answer's fields and defaults, {@code session_url} at an unguessable
 * checkout id, validation, {@code payment_not_found} for unknown ids and other merchants' and modes' sessions,
 * idempotent creation, cancel and complete.
 */
class PaymentSessionsIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;

    private io.tender.support.Merchants.Merchant merchant;
    private Api api;
    private Collect collect;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        api = merchant.test();
        collect = new Collect(api, checkout);
    }

    @Test
    void aSessionAnswersItsFieldsWithTheirDefaultsAndItsCheckoutUrl() {
        JsonNode session = collect.session("\"amount\":15000,\"currency\":\"ZAR\",\"external_reference\":\"order-1\","
                + "\"metadata\":{\"cart\":\"c-1\"}");

        assertThat(session.get("id").stringValue()).matches("^ps_[a-f0-9]{24}$");
        assertThat(session.get("type").stringValue()).isEqualTo("one_time");
        assertThat(session.get("amount").longValue()).isEqualTo(15000);
        assertThat(session.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(session.get("country").stringValue()).isEqualTo("ZA");
        assertThat(session.get("status").stringValue()).isEqualTo("active");
        assertThat(session.get("payment_outcome").stringValue()).isEqualTo("not_started");
        assertThat(session.get("payment_status").stringValue()).isEqualTo("pending");
        assertThat(session.get("mode").stringValue()).isEqualTo("test");
        assertThat(session.get("checkout_session_id").stringValue()).matches("^ckt_[a-f0-9]{32}$");
        assertThat(session.get("session_url").stringValue())
                .endsWith("/checkout/" + session.get("checkout_session_id").stringValue())
                .doesNotContain(session.get("id").stringValue());
        assertThat(session.get("options").get("checkout_options").get("presentation_mode").stringValue()).isEqualTo("redirect");
        assertThat(session.get("options").get("checkout_options").get("payment_method_selection").stringValue()).isEqualTo("gateway");
        assertThat(session.get("options").get("checkout_options").get("visible_payment_methods").toString())
                .isEqualTo("[\"card\",\"pay_by_bank\",\"capitec_pay\",\"mobile_money\"]");
        assertThat(session.get("options").get("payment_method_options").get("card").get("capture_method").stringValue())
                .isEqualTo("automatic");
        assertThat(session.get("external_reference").stringValue()).isEqualTo("order-1");
        assertThat(session.get("metadata").get("cart").stringValue()).isEqualTo("c-1");
        assertThat(java.time.Duration.between(java.time.Instant.parse(session.get("created_at").stringValue()),
                java.time.Instant.parse(session.get("expires_at").stringValue()))).isEqualTo(java.time.Duration.ofHours(24));
        assertThat(session.has("payment_id")).isFalse();
        assertThat(collect.refreshed(session)).isEqualTo(session);
        assertThat(checkout.load(session.get("id").stringValue())).as("the ps_ id alone opens nothing").isEmpty();
        assertThat(checkout.load(session.get("checkout_session_id").stringValue())).get()
                .satisfies(page -> assertThat(page.displayAmount()).isEqualTo("ZAR 150.00"));
    }

    @ParameterizedTest(name = "{0} -> 400 on {1}")
    @CsvSource(delimiter = '|', value = {
            "'\"currency\":\"ZAR\"'|amount",
            "'\"amount\":100'|currency",
            "'\"amount\":-1,\"currency\":\"ZAR\"'|amount",
            "'\"amount\":100000000,\"currency\":\"ZAR\"'|amount",
            "'\"amount\":100,\"currency\":\"XXX\"'|currency",
            "'\"amount\":100,\"currency\":\"ZAR\",\"type\":\"weekly\"'|type",
            "'\"amount\":100,\"currency\":\"ZAR\",\"external_reference\":\"has space\"'|external_reference",
            "'\"amount\":100,\"currency\":\"ZAR\",\"expires_at\":\"2020-01-01T00:00:00Z\"'|expires_at",
            "'\"amount\":100,\"currency\":\"ZAR\",\"bill\":\"b\",\"account\":\"a\"'|bill",
            "'\"amount\":100,\"currency\":\"ZAR\",\"surprise\":1'|surprise",
            "'\"amount\":100,\"currency\":\"ZAR\",\"options\":{\"checkout_options\":{\"return_url\":\"ftp://x.example\"}}'|options.checkout_options.return_url",
            "'\"amount\":100,\"currency\":\"ZAR\",\"options\":{\"checkout_options\":{\"payment_method_selection\":\"merchant\"}}'|options.checkout_options.return_url",
            "'\"amount\":100,\"currency\":\"ZAR\",\"options\":{\"checkout_options\":{\"visible_payment_methods\":[\"cash\"]}}'|options.checkout_options.visible_payment_methods",
            "'\"amount\":100,\"currency\":\"ZAR\",\"options\":{\"payment_method_options\":{\"card\":{\"capture_method\":\"later\"}}}'|options.payment_method_options.card.capture_method",
            "'\"amount\":100,\"currency\":\"ZAR\",\"options\":{\"payment_method_options\":{\"mobile_money\":{\"phone_number\":\"+254700000001\"}}}'|options.payment_method_options.mobile_money.phone_number",
            "'\"amount\":0,\"currency\":\"ZAR\",\"options\":{\"checkout_options\":{\"visible_payment_methods\":[\"pay_by_bank\"]}}'|amount",
    })
    void badSessionsAre400NamingTheFieldAndStoreNothing(String members, String field) {
        assertBadRequest(api.post("/collect/payment_sessions", "{" + members + "}").idempotencyKey("bad").send(), field);
        assertThat(jdbc.sql("select count(*) from payment_sessions where merchant_id = ?").param(merchant.id())
                .query(Long.class).single()).isZero();
    }

    @Test
    void unknownSessionsAndPaymentsAndOtherMerchantsOnesArePaymentNotFound() {
        JsonNode session = collect.session(500);
        String id = session.get("id").stringValue();
        assertProblem(api.get("/collect/payment_sessions/ps_000000000000000000000000").send(), 404, "payment_not_found");
        assertProblem(api.get("/collect/payment_sessions/nonsense").send(), 404, "payment_not_found");
        assertProblem(api.get("/collect/payments/pay_000000000000000000000000").send(), 404, "payment_not_found");
        var other = merchants.create();
        assertProblem(other.test().get("/collect/payment_sessions/" + id).send(), 404, "payment_not_found");
        assertProblem(other.test().post("/collect/payment_sessions/" + id + "/cancel", "{}").send(), 404, "payment_not_found");
        Checkout.Attempt attempt = collect.payByCard(session, "4242424242424242");
        assertProblem(other.test().get("/collect/payments/" + attempt.paymentId()).send(), 404, "payment_not_found");
        assertThat(other.test().get("/collect/payments?payment_session=" + id).send().json().get("data")).isEmpty();
    }

    @Test
    void creationIsIdempotent() {
        String body = "{\"amount\":700,\"currency\":\"ZAR\"}";
        var first = api.post("/collect/payment_sessions", body).idempotencyKey("ps-1").send();
        var again = api.post("/collect/payment_sessions", body).idempotencyKey("ps-1").send();
        assertThat(first.status()).isEqualTo(201);
        assertThat(again.bytes()).isEqualTo(first.bytes());
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertProblem(api.post("/collect/payment_sessions", "{\"amount\":701,\"currency\":\"ZAR\"}")
                .idempotencyKey("ps-1").send(), 409, "idempotency_conflict");
    }

    @Test
    void aSessionCanBeCancelledOnceAndThenTakesNoAttempt() {
        JsonNode session = collect.session(900);
        String id = session.get("id").stringValue();
        JsonNode cancelled = Collect.expect(200, api.post("/collect/payment_sessions/" + id + "/cancel", "{}").send());
        assertThat(cancelled.get("status").stringValue()).isEqualTo("cancelled");
        assertThat(cancelled.get("payment_outcome").stringValue()).isEqualTo("unpaid");
        assertThat(cancelled.get("payment_status").stringValue()).isEqualTo("unpaid");
        assertProblem(api.post("/collect/payment_sessions/" + id + "/cancel", "{}").send(), 409, "invalid_state_transition");
        var refused = org.assertj.core.api.Assertions.catchThrowableOfType(io.tender.api.ApiException.class,
                () -> collect.payByCard(session, "4242424242424242"));
        assertThat(refused.status()).isEqualTo(409);
    }

    @Test
    void merchantSelectionWaitsForCompleteAfterEachAttempt() {
        JsonNode session = collect.session("\"amount\":1200,\"currency\":\"ZAR\",\"options\":{\"checkout_options\":"
                + "{\"return_url\":\"https://shop.example/back\",\"payment_method_selection\":\"merchant\","
                + "\"selected_payment_method\":\"card\"}}");
        String id = session.get("id").stringValue();
        assertProblem(api.post("/collect/payment_sessions/" + id + "/complete", "{\"selected_payment_method\":\"card\"}")
                .send(), 409, "invalid_state_transition");

        Checkout.Attempt declined = collect.payByCard(session, "4000000000000002");
        assertThat(declined.status()).isEqualTo("failed");
        var waiting = org.assertj.core.api.Assertions.catchThrowableOfType(io.tender.api.ApiException.class,
                () -> collect.payByCard(session, "4242424242424242"));
        assertThat(waiting.status()).isEqualTo(409);

        JsonNode completed = Collect.expect(200, api.post("/collect/payment_sessions/" + id + "/complete",
                "{\"selected_payment_method\":\"instant_eft\",\"visible_payment_methods\":[\"card\",\"instant_eft\"]}").send());
        assertThat(completed.get("options").get("checkout_options").get("selected_payment_method").stringValue())
                .isEqualTo("pay_by_bank");
        assertThat(completed.get("session_url")).isEqualTo(session.get("session_url"));
        assertBadRequest(api.post("/collect/payment_sessions/" + id + "/complete",
                "{\"selected_payment_method\":\"cash\"}").send(), "selected_payment_method");
    }
}
