package io.tender.payment;

import io.tender.checkout.Checkout;
import io.tender.api.ApiException;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@code GET /collect/payments} as every list (decisions §1): newest first, cursor pages, filters, bad filters; keys:
 * no key 401, public keys 403 on every Collect endpoint; live mode without a configured processor answers 503 and
 * starts nothing.
 */
class PaymentListsAndKeysIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;

    private Merchants.Merchant merchant;
    private Collect collect;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        collect = new Collect(merchant.test(), checkout);
    }

    @Test
    void paymentsListNewestFirstInCursorPagesWithFilters() {
        JsonNode session = collect.session(100);
        List<String> made = new ArrayList<>();
        made.add(collect.payByCard(session, "4000000000000002").paymentId());
        made.add(collect.payByCard(session, "4000000000009995").paymentId());
        made.add(collect.payByCard(session, "4242424242424242").paymentId());
        JsonNode other = collect.session(200);
        made.add(collect.payByCard(other, "4242424242424242").paymentId());

        JsonNode first = collect.get("/collect/payments?limit=3");
        assertThat(first.get("has_more").booleanValue()).isTrue();
        List<String> seen = new ArrayList<>();
        first.get("data").forEach(p -> seen.add(p.get("id").stringValue()));
        JsonNode second = collect.get("/collect/payments?limit=3&cursor=" + first.get("next_cursor").stringValue());
        assertThat(second.get("has_more").booleanValue()).isFalse();
        second.get("data").forEach(p -> seen.add(p.get("id").stringValue()));
        assertThat(seen).containsExactlyElementsOf(made.reversed());

        String id = session.get("id").stringValue();
        assertThat(collect.get("/collect/payments?payment_session=" + id + "&status=failed").get("data")).hasSize(2);
        assertThat(collect.get("/collect/payments?status=succeeded&payment_session=" + id).get("data")).hasSize(1);
        assertBadRequest(merchant.test().get("/collect/payments?status=paid").send(), "status");
        assertBadRequest(merchant.test().get("/collect/payments?payment_session=pay_1").send(), "payment_session");
        assertBadRequest(merchant.test().get("/collect/payments?limit=101").send(), "limit");
        assertThat(merchant.live().get("/collect/payments").send().json().get("data")).isEmpty();
    }

    @Test
    void collectTakesSecretKeysOnly() {
        JsonNode session = collect.session(100);
        String pay = collect.payByCard(session, "4242424242424242").paymentId();
        String ps = session.get("id").stringValue();
        for (Api api : List.of(merchant.publicTest(), merchant.publicLive())) {
            assertProblem(api.post("/collect/payment_sessions", "{\"amount\":1,\"currency\":\"ZAR\"}").send(), 403, "operation_not_allowed");
            assertProblem(api.get("/collect/payment_sessions/" + ps).send(), 403, "operation_not_allowed");
            assertProblem(api.post("/collect/payment_sessions/" + ps + "/cancel", "{}").send(), 403, "operation_not_allowed");
            assertProblem(api.get("/collect/payments").send(), 403, "operation_not_allowed");
            assertProblem(api.get("/collect/payments/" + pay).send(), 403, "operation_not_allowed");
            assertProblem(api.post("/collect/payments/" + pay + "/captures", "{}").send(), 403, "operation_not_allowed");
            assertProblem(api.post("/collect/payments/" + pay + "/voids", "{}").send(), 403, "operation_not_allowed");
        }
        assertProblem(anonymous().post("/collect/payment_sessions", "{\"amount\":1,\"currency\":\"ZAR\"}").send(), 401, "unauthorized");
        assertProblem(anonymous().get("/collect/payments/" + pay).send(), 401, "unauthorized");
        assertThat(collect.refreshed(session).get("status").stringValue()).isEqualTo("completed");
    }

    @Test
    void liveModeWithoutAProcessorAnswers503AndStartsNothing() {
        Collect live = new Collect(merchant.live(), checkout);
        JsonNode session = live.session(100);
        assertThat(session.get("mode").stringValue()).isEqualTo("live");
        var refused = catchThrowableOfType(ApiException.class, () -> live.payByCard(session, "4242424242424242"));
        assertThat(refused.status()).isEqualTo(503);
        assertThat(live.refreshed(session).get("payment_outcome").stringValue()).isEqualTo("not_started");
        assertThat(live.get("/collect/payments").get("data")).isEmpty();
    }
}
