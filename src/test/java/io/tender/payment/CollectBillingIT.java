package io.tender.payment;

import io.tender.checkout.Checkout;
import io.tender.api.ApiException;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Decisions §6 "Payment session" with a bill or account: payment rules checked at creation (422) and when an attempt
 * starts, the amount defaulting to what is outstanding, the succeeded payment applied in the transaction that records
 * it ({@code obligation.amount_applied}); billing's test helper makes the same payment object.
 */
class CollectBillingIT extends ApiIntegrationTest {

    private static final String PARTIAL = "\"payment_rules\":{\"overpayment_allowed\":false,\"underpayment_allowed\":true}";

    @Autowired
    private Checkout checkout;

    private Api api;
    private Collect collect;

    @BeforeEach
    void merchant() {
        api = merchants.create().test();
        collect = new Collect(api, checkout);
    }

    private JsonNode bill(String reference, long amountDue, String rules) {
        Collect.expect(201, api.post("/billing/customers", "{\"external_reference\":\"c-" + reference
                + "\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}").send());
        return Collect.expect(201, api.post("/billing/bills", "{\"customer\":\"c-" + reference
                + "\",\"external_reference\":\"" + reference + "\",\"currency\":\"ZAR\",\"amount_due\":" + amountDue
                + ",\"due_date\":\"2030-01-31\"" + (rules.isEmpty() ? "" : "," + rules) + "}").send());
    }

    @Test
    void aBillSessionDefaultsItsAmountAndItsPaymentIsAppliedWhenItSucceeds() {
        JsonNode bill = bill("INV-1", 12500, "");
        JsonNode session = collect.session("\"bill\":\"INV-1\"");
        assertThat(session.get("amount").longValue()).isEqualTo(12500);
        assertThat(session.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(session.get("obligation_id")).isEqualTo(bill.get("obligation_id"));
        assertThat(session.get("customer_id")).isEqualTo(bill.get("customer_id"));

        Checkout.Attempt attempt = collect.payByCard(session, "4242424242424242");
        JsonNode payment = collect.payment(attempt);
        assertThat(payment.get("obligation_id")).isEqualTo(bill.get("obligation_id"));
        JsonNode paid = collect.get("/billing/bills/INV-1");
        assertThat(paid.get("status").stringValue()).isEqualTo("paid");
        assertThat(paid.get("amount_paid").longValue()).isEqualTo(12500);
        var applied = PaymentEventsIT.events(jdbc, bill.get("obligation_id").stringValue());
        assertThat(applied).hasSize(1);
        assertThat(applied.getFirst().get("type").stringValue()).isEqualTo("obligation.amount_applied");
        assertThat(applied.getFirst().get("data").get("payment_id").stringValue()).isEqualTo(attempt.paymentId());
    }

    @Test
    void theRulesAreCheckedAtCreationAndAgainWhenAnAttemptStarts() {
        bill("INV-2", 5000, PARTIAL);
        assertProblem(api.post("/collect/payment_sessions", "{\"bill\":\"INV-2\",\"amount\":5001}").send(), 422,
                "operation_not_allowed");
        assertProblem(api.post("/collect/payment_sessions", "{\"bill\":\"INV-NONE\"}").send(), 404, "resource_not_found");
        assertBadRequest(api.post("/collect/payment_sessions", "{\"bill\":\"INV-2\",\"options\":{\"payment_method_options\":"
                + "{\"card\":{\"capture_method\":\"manual\"}}}}").send(), "options.payment_method_options.card.capture_method");
        JsonNode session = collect.session("\"bill\":\"INV-2\",\"amount\":3000");
        assertThat(session.get("amount").longValue()).isEqualTo(3000);

        // Paid meanwhile through another channel: 3000 would now be an overpayment.
        Collect.expect(201, api.post("/billing/test_helpers/payments",
                "{\"bill\":\"INV-2\",\"amount\":4000,\"currency\":\"ZAR\"}").send());
        var refused = catchThrowableOfType(ApiException.class, () -> collect.payByCard(session, "4242424242424242"));
        assertThat(refused.status()).isEqualTo(422);
        assertThat(collect.get("/billing/bills/INV-2").get("amount_paid").longValue()).isEqualTo(4000);
        assertThat(collect.get("/collect/payments?payment_session=" + session.get("id").stringValue()).get("data")).isEmpty();
    }

    @Test
    void theTestHelpersPaymentIsAnOrdinaryPayment() {
        bill("INV-3", 900, "");
        JsonNode payment = Collect.expect(201, api.post("/billing/test_helpers/payments",
                "{\"bill\":\"INV-3\",\"amount\":900,\"currency\":\"ZAR\"}").send());
        assertThat(payment.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(payment.get("intent").stringValue()).isEqualTo("payment");
        assertThat(payment.get("capture_method").stringValue()).isEqualTo("automatic");
        assertThat(payment.get("authorized_amount").longValue()).isEqualTo(900);
        assertThat(payment.get("paid_amount").longValue()).isEqualTo(900);
        assertThat(payment.get("country").stringValue()).isEqualTo("ZA");
        assertThat(payment.has("customer_id")).isTrue();
        assertThat(collect.get("/collect/payments/" + payment.get("id").stringValue())).isEqualTo(payment);
        assertThat(collect.get("/collect/payments?status=succeeded").get("data")).contains(payment);
    }
}
