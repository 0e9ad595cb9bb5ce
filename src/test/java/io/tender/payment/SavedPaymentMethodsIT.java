package io.tender.payment;

import io.tender.checkout.Checkout;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §6: a succeeded verification session (amount 0) saves the card as a {@code pm_} payment method, which the
 * session and its payment name and {@code GET /collect/payment_methods/{id}} shows without the card number; a
 * declined verification saves nothing; other merchants, other modes and public keys do not see it.
 */
class SavedPaymentMethodsIT extends ApiIntegrationTest {

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
    void aVerifiedCardIsSavedAndShownWithoutItsNumber() {
        JsonNode session = collect.session(0);
        Checkout.Attempt attempt = collect.payByCard(session, "4242424242424242");

        assertThat(attempt.status()).isEqualTo("succeeded");
        JsonNode verified = collect.refreshed(session);
        assertThat(verified.get("payment_outcome").stringValue()).isEqualTo("payment_method_verified");
        String id = verified.get("payment_method_id").stringValue();
        assertThat(id).matches("^pm_[a-f0-9]{24}$");
        assertThat(collect.payment(attempt).get("payment_method_id").stringValue()).isEqualTo(id);

        Api.Response answer = merchant.test().get("/collect/payment_methods/" + id).send();
        JsonNode method = Collect.expect(200, answer);
        assertThat(method.get("id").stringValue()).isEqualTo(id);
        assertThat(method.get("type").stringValue()).isEqualTo("card");
        assertThat(method.get("card").get("scheme").stringValue()).isEqualTo("VISA");
        assertThat(method.get("card").get("last4").stringValue()).isEqualTo("4242");
        assertThat(method.get("card").get("bin").stringValue()).isEqualTo("424242");
        assertThat(method.get("card").get("exp_year").intValue()).isEqualTo(Collect.EXP_YEAR);
        assertThat(method.get("created_at").stringValue()).isNotBlank();
        assertThat(answer.text()).doesNotContain("4242424242424242").doesNotContain("fingerprint");
        assertThat(jdbc.sql("select count(*) from payment_methods where id = ?").param(id).query(Long.class).single())
                .isEqualTo(1);
    }

    @Test
    void onlyItsMerchantsSecretKeyOfItsModeSeesIt() {
        JsonNode session = collect.session(0);
        collect.payByCard(session, "4242424242424242");
        String id = collect.refreshed(session).get("payment_method_id").stringValue();

        assertProblem(merchants.create().test().get("/collect/payment_methods/" + id).send(), 404, "resource_not_found");
        assertProblem(merchant.live().get("/collect/payment_methods/" + id).send(), 404, "resource_not_found");
        assertProblem(merchant.test().get("/collect/payment_methods/pm_0193f1c2a4b5c6d7e8f9a0b1").send(), 404,
                "resource_not_found");
        assertProblem(merchant.publicTest().get("/collect/payment_methods/" + id).send(), 403, "operation_not_allowed");
        assertProblem(anonymous().get("/collect/payment_methods/" + id).send(), 401, "unauthorized");
    }

    @Test
    void aDeclinedVerificationSavesNothing() {
        JsonNode session = collect.session(0);
        long before = savedMethods();
        Checkout.Attempt attempt = collect.payByCard(session, "4000000000000002");

        assertThat(attempt.status()).isEqualTo("failed");
        assertThat(collect.refreshed(session).get("payment_method_id")).isNull();
        assertThat(collect.payment(attempt).get("payment_method_id")).isNull();
        assertThat(savedMethods()).isEqualTo(before);
    }

    @Test
    void aPaymentSavesNoMethodUnlessTheSessionAsksAlways() {
        JsonNode plain = collect.session(1500);
        Checkout.Attempt paid = collect.payByCard(plain, "4242424242424242");
        assertThat(paid.status()).isEqualTo("succeeded");
        assertThat(collect.payment(paid).get("payment_method_id")).isNull();

        JsonNode always = collect.session("\"amount\":1500,\"currency\":\"ZAR\",\"options\":{\"checkout_options\":"
                + "{\"save_payment_method\":\"always\"}}");
        Checkout.Attempt saved = collect.payByCard(always, "5555555555554444");
        assertThat(saved.status()).isEqualTo("succeeded");
        String id = collect.refreshed(always).get("payment_method_id").stringValue();
        assertThat(collect.payment(saved).get("payment_method_id").stringValue()).isEqualTo(id);
        JsonNode method = collect.get("/collect/payment_methods/" + id);
        assertThat(method.get("card").get("scheme").stringValue()).isEqualTo("MASTERCARD");
        assertThat(method.get("card").get("last4").stringValue()).isEqualTo("4444");
    }

    private long savedMethods() {
        return jdbc.sql("select count(*) from payment_methods where merchant_id = ?").param(merchant.id())
                .query(Long.class).single();
    }
}
