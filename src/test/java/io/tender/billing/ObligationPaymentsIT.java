package io.tender.billing;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import java.util.List;

import static io.tender.billing.BillingApi.errorFields;
import static io.tender.billing.BillingApi.events;
import static io.tender.billing.BillingApi.problem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three usage models of the spec, each from creation to a payment and its {@code obligation.amount_applied}
 * event, and the payment rules of decisions §4, over HTTP through the test-mode payment helper.
 */
class ObligationPaymentsIT extends ApiIntegrationTest {

    private static final String PARTIAL_PAYMENTS =
            "\"payment_rules\":{\"overpayment_allowed\":false,\"underpayment_allowed\":true}";

    private Merchant merchant;
    private BillingApi billing;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        billing = new BillingApi(merchant.test());
    }

    @Test
    void customerBalanceAPaymentBringsTheBalanceDownAndAnnouncesItWithTheCustomerId() {
        JsonNode customer = billing.customer("cb-1", "\"currency\":\"ZAR\",\"balance\":5000," + PARTIAL_PAYMENTS);

        JsonNode payment = BillingApi.expect(201, billing.pay("customer", "cb-1", 2000, "ZAR"));

        assertThat(payment.get("id").stringValue()).matches("^pay_[a-f0-9]{24}$");
        assertThat(payment.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(payment.get("amount").longValue()).isEqualTo(2000);
        assertThat(payment.get("paid_amount").longValue()).isEqualTo(2000);
        assertThat(payment.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(payment.get("mode").stringValue()).isEqualTo("test");
        assertThat(payment.get("obligation_id")).isEqualTo(customer.get("obligation_id"));
        assertThat(billing.get("/collect/payments/" + payment.get("id").stringValue())).isEqualTo(payment);
        assertThat(billing.get("/billing/customers/cb-1").get("balance").longValue()).isEqualTo(3000);

        JsonNode event = onlyEvent(customer.get("obligation_id").stringValue());
        JsonNode data = event.get("data");
        assertThat(data.propertyNames()).containsExactlyInAnyOrder("id", "amount", "currency", "payment_id", "customer_id");
        assertThat(data.get("id")).isEqualTo(customer.get("obligation_id"));
        assertThat(data.get("amount").longValue()).isEqualTo(2000);
        assertThat(data.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(data.get("payment_id")).isEqualTo(payment.get("id"));
        assertThat(data.get("customer_id")).isEqualTo(customer.get("id"));
    }

    @Test
    void accountBalanceAPaymentMovesOnlyThatAccountAndAnnouncesItWithTheAccountId() {
        String customer = billing.customer("ab-c", "\"currency\":\"ZAR\",\"balance\":100," + PARTIAL_PAYMENTS)
                .get("id").stringValue();
        JsonNode account = billing.account(customer, "ab-1", "\"currency\":\"ZAR\",\"balance\":8000," + PARTIAL_PAYMENTS);
        billing.account(customer, "ab-2", "\"currency\":\"ZAR\",\"balance\":8000," + PARTIAL_PAYMENTS);

        JsonNode payment = BillingApi.expect(201, billing.pay("account", account.get("id").stringValue(), 8000, "ZAR"));

        assertThat(billing.get("/billing/accounts/ab-1").get("balance").longValue()).isZero();
        assertThat(billing.get("/billing/accounts/ab-2").get("balance").longValue()).isEqualTo(8000);
        assertThat(billing.get("/billing/customers/ab-c").get("balance").longValue()).isEqualTo(100);
        JsonNode data = onlyEvent(account.get("obligation_id").stringValue()).get("data");
        assertThat(data.propertyNames()).containsExactlyInAnyOrder("id", "amount", "currency", "payment_id", "account_id");
        assertThat(data.get("account_id")).isEqualTo(account.get("id"));
        assertThat(data.get("payment_id")).isEqualTo(payment.get("id"));
        assertThat(data.get("amount").longValue()).isEqualTo(8000);
    }

    @Test
    void billAmountDuePaymentsSettleTheBillAndAnnounceTheAccountOfABillRaisedAgainstOne() {
        JsonNode bill = billing.create("/billing/bills", """
                {"account":{"customer":{"external_reference":"bd-c","name":"Grace","email":"grace@example.com"},
                            "external_reference":"bd-a","name":"Rates"},
                 "external_reference":"INV-BD","currency":"ZAR","amount_due":10000,"due_date":"2030-01-31"}""");

        JsonNode first = BillingApi.expect(201, billing.pay("bill", "INV-BD", 4000, "ZAR"));
        JsonNode afterFirst = billing.get("/billing/bills/INV-BD");
        assertThat(afterFirst.get("amount_paid").longValue()).isEqualTo(4000);
        assertThat(afterFirst.get("amount_remaining").longValue()).isEqualTo(6000);
        assertThat(afterFirst.get("status").stringValue()).isEqualTo("unpaid");

        JsonNode second = BillingApi.expect(201, billing.pay("bill", bill.get("id").stringValue(), 6000, "ZAR"));
        JsonNode settled = billing.get("/billing/bills/INV-BD");
        assertThat(settled.get("amount_paid").longValue()).isEqualTo(10000);
        assertThat(settled.get("amount_remaining").longValue()).isZero();
        assertThat(settled.get("status").stringValue()).isEqualTo("paid");

        List<JsonNode> events = events(jdbc, bill.get("obligation_id").stringValue());
        assertThat(events).hasSize(2);
        assertThat(events.stream().map(e -> e.get("data").get("payment_id"))).containsExactly(first.get("id"), second.get("id"));
        for (JsonNode event : events) {
            assertThat(event.get("data").get("account_id")).isEqualTo(bill.get("account_id"));
            assertThat(event.get("data").has("customer_id")).isFalse();
        }
        // The account's own balance is another obligation, untouched by its bills.
        assertThat(billing.get("/billing/accounts/bd-a").has("balance")).isFalse();
    }

    @Test
    void aBillRaisedDirectlyAgainstACustomerIsAnnouncedWithTheCustomerId() {
        String customer = billing.customer("bc-c", "").get("id").stringValue();
        JsonNode bill = billing.bill("customer", customer, "INV-BC", 700, "");

        BillingApi.expect(201, billing.pay("bill", "INV-BC", 700, "ZAR"));

        JsonNode data = onlyEvent(bill.get("obligation_id").stringValue()).get("data");
        assertThat(data.get("customer_id").stringValue()).isEqualTo(customer);
        assertThat(data.has("account_id")).isFalse();
    }

    @Test
    void anObligationWithoutPaymentRulesCannotBePaidAndNothingIsRecorded() {
        JsonNode customer = billing.customer("no-rules", "\"currency\":\"ZAR\",\"balance\":5000");
        String account = billing.account(customer.get("id").stringValue(), "no-rules-acc", "\"currency\":\"ZAR\",\"balance\":10")
                .get("id").stringValue();

        JsonNode refused = problem(billing.pay("customer", "no-rules", 1000, "ZAR"), 422, "operation_not_allowed");
        assertThat(refused.get("detail").stringValue()).contains("payment_rules");
        problem(billing.pay("account", account, 10, "ZAR"), 422, "operation_not_allowed");

        assertThat(billing.get("/billing/customers/no-rules").get("balance").longValue()).isEqualTo(5000);
        assertThat(events(jdbc, customer.get("obligation_id").stringValue())).isEmpty();
        assertThat(paymentsOf(customer.get("obligation_id").stringValue())).isZero();
    }

    @Test
    void anObligationWithoutACurrencyCannotBePaid() {
        billing.customer("no-currency", PARTIAL_PAYMENTS);

        JsonNode refused = problem(billing.pay("customer", "no-currency", 100, "ZAR"), 422, "operation_not_allowed");
        assertThat(refused.get("detail").stringValue()).contains("currency");
    }

    @Test
    void aPaymentInAnotherCurrencyIsRefused() {
        String customer = billing.customer("c", "").get("id").stringValue();
        JsonNode bill = billing.bill("customer", customer, "INV-CUR", 1000, "");

        JsonNode refused = problem(billing.pay("bill", "INV-CUR", 1000, "USD"), 422, "operation_not_allowed");

        assertThat(refused.get("detail").stringValue()).contains("ZAR").contains("USD");
        assertThat(billing.get("/billing/bills/INV-CUR").get("amount_paid").longValue()).isZero();
        assertThat(events(jdbc, bill.get("obligation_id").stringValue())).isEmpty();
    }

    @ParameterizedTest(name = "balance 1000, rules {0}: a payment of {1} is {2}")
    @CsvSource(delimiter = '|', value = {
            "'\"min_amount\":200,\"overpayment_allowed\":true,\"underpayment_allowed\":true'|199|422|1000",
            "'\"min_amount\":200,\"overpayment_allowed\":true,\"underpayment_allowed\":true'|200|201|800",
            "'\"max_amount\":600,\"overpayment_allowed\":true,\"underpayment_allowed\":true'|601|422|1000",
            "'\"max_amount\":600,\"overpayment_allowed\":true,\"underpayment_allowed\":true'|600|201|400",
            "'\"overpayment_allowed\":false,\"underpayment_allowed\":true'|1001|422|1000",
            "'\"overpayment_allowed\":false,\"underpayment_allowed\":true'|1000|201|0",
            "'\"overpayment_allowed\":true,\"underpayment_allowed\":false'|999|422|1000",
            "'\"overpayment_allowed\":true,\"underpayment_allowed\":false'|1500|201|-500",
            "'\"overpayment_allowed\":false,\"underpayment_allowed\":false'|1000|201|0",
    })
    void paymentRulesDecideWhatABalanceAccepts(String rules, long amount, int status, long balanceAfter) {
        JsonNode customer = billing.customer("rules", "\"currency\":\"ZAR\",\"balance\":1000,\"payment_rules\":{" + rules + "}");

        var response = billing.pay("customer", "rules", amount, "ZAR");

        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        if (status == 422) {
            assertThat(response.json().get("code").stringValue()).isEqualTo("operation_not_allowed");
        }
        assertThat(billing.get("/billing/customers/rules").get("balance").longValue()).isEqualTo(balanceAfter);
        assertThat(events(jdbc, customer.get("obligation_id").stringValue())).hasSize(status == 201 ? 1 : 0);
    }

    @Test
    void aBillThatForbidsOverpaymentRefusesAnythingAboveWhatRemains() {
        String customer = billing.customer("c", "").get("id").stringValue();
        billing.bill("customer", customer, "INV-OVER", 1000, "");
        billing.pay("bill", "INV-OVER", 600, "ZAR");

        problem(billing.pay("bill", "INV-OVER", 401, "ZAR"), 422, "operation_not_allowed");
        BillingApi.expect(201, billing.pay("bill", "INV-OVER", 400, "ZAR"));
        // Paid in full: anything more is an overpayment.
        problem(billing.pay("bill", "INV-OVER", 1, "ZAR"), 422, "operation_not_allowed");
        assertThat(billing.get("/billing/bills/INV-OVER").get("amount_paid").longValue()).isEqualTo(1000);
    }

    @Test
    void aBillThatAllowsOverpaymentShowsTheExcessAsANegativeAmountRemaining() {
        String customer = billing.customer("c", "").get("id").stringValue();
        billing.bill("customer", customer, "INV-EXTRA", 1000,
                "\"payment_rules\":{\"overpayment_allowed\":true,\"underpayment_allowed\":false}");

        problem(billing.pay("bill", "INV-EXTRA", 999, "ZAR"), 422, "operation_not_allowed");
        BillingApi.expect(201, billing.pay("bill", "INV-EXTRA", 1200, "ZAR"));

        JsonNode bill = billing.get("/billing/bills/INV-EXTRA");
        assertThat(bill.get("status").stringValue()).isEqualTo("paid");
        assertThat(bill.get("amount_paid").longValue()).isEqualTo(1200);
        assertThat(bill.get("amount_remaining").longValue()).isEqualTo(-200);
    }

    @Test
    void aVoidedBillCannotBePaid() {
        String customer = billing.customer("c", "").get("id").stringValue();
        JsonNode bill = billing.bill("customer", customer, "INV-VOID", 1000, "");
        BillingApi.expect(200, merchant.test().post("/billing/bills/INV-VOID/void", null).send());

        problem(billing.pay("bill", "INV-VOID", 1000, "ZAR"), 409, "invalid_state_transition");
        assertThat(events(jdbc, bill.get("obligation_id").stringValue())).isEmpty();
    }

    @Test
    void aRetryWithTheSameIdempotencyKeyReturnsTheSamePaymentAndAppliesItOnce() {
        JsonNode customer = billing.customer("idem", "\"currency\":\"ZAR\",\"balance\":5000," + PARTIAL_PAYMENTS);
        String body = "{\"customer\":\"idem\",\"amount\":1500,\"currency\":\"ZAR\"}";

        var first = merchant.test().post("/billing/test_helpers/payments", body).idempotencyKey("pay-1").send();
        var again = merchant.test().post("/billing/test_helpers/payments", body).idempotencyKey("pay-1").send();

        assertThat(first.status()).isEqualTo(201);
        assertThat(again.bytes()).isEqualTo(first.bytes());
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(billing.get("/billing/customers/idem").get("balance").longValue()).isEqualTo(3500);
        assertThat(events(jdbc, customer.get("obligation_id").stringValue())).hasSize(1);
        problem(merchant.test().post("/billing/test_helpers/payments",
                "{\"customer\":\"idem\",\"amount\":1,\"currency\":\"ZAR\"}").idempotencyKey("pay-1").send(),
                409, "idempotency_conflict");
    }

    @Test
    void liveKeysCannotUseTheTestHelper() {
        String customer = new BillingApi(merchant.live()).customer("live", "\"currency\":\"ZAR\",\"balance\":5000,"
                + PARTIAL_PAYMENTS).get("id").stringValue();

        problem(merchant.live().post("/billing/test_helpers/payments",
                "{\"customer\":\"" + customer + "\",\"amount\":100,\"currency\":\"ZAR\"}").send(), 403, "operation_not_allowed");
        assertThat(new BillingApi(merchant.live()).get("/billing/customers/live").get("balance").longValue()).isEqualTo(5000);
    }

    @ParameterizedTest(name = "{0} -> 400 on {1}")
    @CsvSource(delimiter = '|', value = {
            "'\"amount\":100,\"currency\":\"ZAR\"'|bill",
            "'\"bill\":\"b\",\"customer\":\"c\",\"amount\":100,\"currency\":\"ZAR\"'|bill",
            "'\"customer\":\"c\",\"amount\":0,\"currency\":\"ZAR\"'|amount",
            "'\"customer\":\"c\",\"amount\":100000000,\"currency\":\"ZAR\"'|amount",
            "'\"customer\":\"c\",\"amount\":100'|currency",
            "'\"customer\":7,\"amount\":100,\"currency\":\"ZAR\"'|customer",
            "'\"customer\":\"c\",\"amount\":100,\"currency\":\"ZAR\",\"status\":\"failed\"'|status",
    })
    void refusesABadTestPayment(String members, String field) {
        billing.customer("c", "\"currency\":\"ZAR\",\"balance\":100," + PARTIAL_PAYMENTS);

        assertThat(errorFields(merchant.test().post("/billing/test_helpers/payments", "{" + members + "}").send()))
                .contains(field);
        assertThat(billing.get("/billing/customers/c").get("balance").longValue()).isEqualTo(100);
    }

    @Test
    void unknownTargetsAndPaymentsAreNotFoundAndOtherMerchantsPaymentsAreInvisible() {
        problem(billing.pay("bill", "INV-NONE", 100, "ZAR"), 404, "resource_not_found");
        problem(billing.pay("customer", "bcus_000000000000000000000000", 100, "ZAR"), 404, "resource_not_found");
        problem(merchant.test().get("/collect/payments/pay_000000000000000000000000").send(), 404, "payment_not_found");
        problem(merchant.test().get("/collect/payments/nonsense").send(), 404, "payment_not_found");

        billing.customer("c", "\"currency\":\"ZAR\",\"balance\":100," + PARTIAL_PAYMENTS);
        String paymentId = BillingApi.expect(201, billing.pay("customer", "c", 100, "ZAR")).get("id").stringValue();
        Api other = merchants.create().test();
        problem(other.get("/collect/payments/" + paymentId).send(), 404, "payment_not_found");
        problem(merchant.live().get("/collect/payments/" + paymentId).send(), 404, "payment_not_found");
        // Nor can another merchant pay this merchant's customer.
        problem(new BillingApi(other).pay("customer", "c", 1, "ZAR"), 404, "resource_not_found");
        assertThat(billing.get("/billing/customers/c").get("balance").longValue()).isZero();
    }

    @Test
    void theEventIsACloudEventAboutTheObligation() {
        JsonNode customer = billing.customer("ce", "\"currency\":\"ZAR\",\"balance\":100," + PARTIAL_PAYMENTS);
        billing.pay("customer", "ce", 100, "ZAR");

        JsonNode event = onlyEvent(customer.get("obligation_id").stringValue());

        assertThat(event.get("specversion").stringValue()).isEqualTo("1.0");
        assertThat(event.get("id").stringValue()).matches("^evt_[a-f0-9]{24}$");
        assertThat(event.get("type").stringValue()).isEqualTo("obligation.amount_applied");
        assertThat(event.get("subject")).isEqualTo(customer.get("obligation_id"));
        assertThat(event.get("source").stringValue()).isEqualTo("/billing/obligation");
        assertThat(event.get("datacontenttype").stringValue()).isEqualTo("application/json");
        assertThat(event.get("merchantid").stringValue()).isEqualTo(merchant.id());
        assertThat(event.get("mode").stringValue()).isEqualTo("test");
        assertThat(jdbc.sql("select event_id from billing_payment_applications where obligation_id = ?")
                .params(customer.get("obligation_id").stringValue()).query(String.class).single())
                .isEqualTo(event.get("id").stringValue());
    }

    private JsonNode onlyEvent(String obligationId) {
        List<JsonNode> events = events(jdbc, obligationId);
        assertThat(events).hasSize(1);
        assertThat(events.getFirst().get("type").stringValue()).isEqualTo("obligation.amount_applied");
        return events.getFirst();
    }

    private long paymentsOf(String obligationId) {
        return jdbc.sql("select count(*) from payments where obligation_id = ?").params(obligationId)
                .query(Long.class).single();
    }
}
