package io.tender.billing;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

import static io.tender.billing.BillingApi.errorFields;
import static io.tender.billing.BillingApi.problem;
import static org.assertj.core.api.Assertions.assertThat;

/** Bills: creation (nested included), status rules, PATCH, void and lists (spec "Billing", decisions §4). */
class BillingBillsIT extends ApiIntegrationTest {

    private Merchant merchant;
    private BillingApi billing;
    private String customerId;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        billing = new BillingApi(merchant.test());
        customerId = billing.customer("cus", "").get("id").stringValue();
    }

    @Test
    void aBillRaisedAgainstACustomerStartsUnpaidWithNothingPaid() {
        JsonNode bill = billing.bill("customer", customerId, "INV-0001", 15000, "\"metadata\":{\"period\":\"2026-05\"}");

        assertThat(bill.get("id").stringValue()).matches("^bill_[a-f0-9]{24}$");
        assertThat(bill.get("obligation_id").stringValue()).matches("^ob_[a-f0-9]{24}$");
        assertThat(bill.get("external_reference").stringValue()).isEqualTo("INV-0001");
        assertThat(bill.get("customer_id").stringValue()).isEqualTo(customerId);
        assertThat(bill.has("account_id")).isFalse();
        assertThat(bill.get("status").stringValue()).isEqualTo("unpaid");
        assertThat(bill.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(bill.get("amount_due").longValue()).isEqualTo(15000);
        assertThat(bill.get("amount_paid").longValue()).isZero();
        assertThat(bill.get("amount_remaining").longValue()).isEqualTo(15000);
        assertThat(bill.get("bill_date").stringValue()).isEqualTo(LocalDate.now(ZoneOffset.UTC).toString());
        assertThat(bill.get("due_date").stringValue()).isEqualTo("2030-01-31");
        // Without rules a bill takes partial payments up to what remains, never more.
        assertThat(bill.get("payment_rules").get("overpayment_allowed").booleanValue()).isFalse();
        assertThat(bill.get("payment_rules").get("underpayment_allowed").booleanValue()).isTrue();
        assertThat(bill.get("metadata").get("period").stringValue()).isEqualTo("2026-05");

        assertThat(billing.get("/billing/bills/" + bill.get("id").stringValue())).isEqualTo(bill);
        assertThat(billing.get("/billing/bills/INV-0001")).isEqualTo(bill);
    }

    @Test
    void aBillWithANestedAccountAndCustomerCreatesAllThreeInSequence() {
        JsonNode bill = billing.create("/billing/bills", """
                {"account":{"customer":{"external_reference":"new-cus","name":"Grace","email":"grace@example.com"},
                            "external_reference":"new-acc","name":"Rates"},
                 "external_reference":"INV-7","currency":"ZAR","amount_due":4200,
                 "bill_date":"2026-05-01","due_date":"2026-05-31"}""");

        JsonNode account = billing.get("/billing/accounts/new-acc");
        JsonNode customer = billing.get("/billing/customers/new-cus");
        assertThat(bill.get("account_id")).isEqualTo(account.get("id"));
        assertThat(bill.get("customer_id")).isEqualTo(customer.get("id"));
        assertThat(account.get("customer_id")).isEqualTo(customer.get("id"));
        assertThat(bill.get("bill_date").stringValue()).isEqualTo("2026-05-01");
    }

    @Test
    void aBillAgainstAnExistingAccountBelongsToThatAccountsCustomer() {
        String accountId = billing.account(customerId, "acc", "").get("id").stringValue();

        JsonNode byAccount = billing.bill("account", "acc", "INV-1", 100, "");
        JsonNode withBoth = billing.bill("account", accountId, "INV-2", 100, "\"customer\":\"cus\"");

        assertThat(byAccount.get("account_id").stringValue()).isEqualTo(accountId);
        assertThat(byAccount.get("customer_id").stringValue()).isEqualTo(customerId);
        assertThat(withBoth.get("account_id").stringValue()).isEqualTo(accountId);
        assertThat(withBoth.get("customer_id").stringValue()).isEqualTo(customerId);
    }

    @Test
    void anAccountAndACustomerThatDoNotBelongTogetherAreRefusedAndNothingIsCreated() {
        billing.customer("other", "");
        var existing = merchant.test().post("/billing/bills", """
                {"account":{"customer":"cus","external_reference":"nested-acc","name":"A"},"customer":"other",
                 "external_reference":"INV-X","currency":"ZAR","amount_due":100,"due_date":"2030-01-01"}""").send();

        assertThat(errorFields(existing)).containsExactly("customer");
        problem(merchant.test().get("/billing/accounts/nested-acc").send(), 404, "resource_not_found");
        assertThat(billing.get("/billing/bills").get("data")).isEmpty();
    }

    @Test
    void aNestedCreateIsAllOrNothingWhenTheBillReferenceFailsAfterItsCustomerAndAccountWereWritten() {
        billing.bill("customer", customerId, "INV-TAKEN", 100, "");

        var response = merchant.test().post("/billing/bills", """
                {"account":{"customer":{"external_reference":"ghost-cus","name":"G","email":"g@example.com"},
                            "external_reference":"ghost-acc","name":"A"},
                 "external_reference":"INV-TAKEN","currency":"ZAR","amount_due":100,"due_date":"2030-01-01"}""")
                .idempotencyKey("nested-dup").send();

        problem(response, 409, "resource_already_exists");
        problem(merchant.test().get("/billing/customers/ghost-cus").send(), 404, "resource_not_found");
        problem(merchant.test().get("/billing/accounts/ghost-acc").send(), 404, "resource_not_found");
        assertThat(jdbc.sql("select count(*) from billing_customers where external_reference = 'ghost-cus'")
                .query(Long.class).single()).isZero();
        assertThat(jdbc.sql("select count(*) from billing_accounts where external_reference = 'ghost-acc'")
                .query(Long.class).single()).isZero();
        // The refusal is the request's outcome: a retry with the same key replays it and still creates nothing.
        var retry = merchant.test().post("/billing/bills", """
                {"account":{"customer":{"external_reference":"ghost-cus","name":"G","email":"g@example.com"},
                            "external_reference":"ghost-acc","name":"A"},
                 "external_reference":"INV-TAKEN","currency":"ZAR","amount_due":100,"due_date":"2030-01-01"}""")
                .idempotencyKey("nested-dup").send();
        assertThat(retry.bytes()).isEqualTo(response.bytes());
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
        problem(merchant.test().get("/billing/customers/ghost-cus").send(), 404, "resource_not_found");
    }

    @ParameterizedTest(name = "{0} -> 400 on {1}")
    @CsvSource(delimiter = '|', value = {
            "'\"customer\":\"cus\",\"external_reference\":\"bcus_1\",\"currency\":\"ZAR\",\"amount_due\":1,\"due_date\":\"2030-01-01\"'|external_reference",
            "'\"customer\":\"cus\",\"external_reference\":\"bill_1\",\"currency\":\"ZAR\",\"amount_due\":1,\"due_date\":\"2030-01-01\"'|external_reference",
            "'\"customer\":\"cus\",\"external_reference\":\"inv.1\",\"currency\":\"ZAR\",\"amount_due\":1,\"due_date\":\"2030-01-01\"'|external_reference",
            "'\"customer\":\"cus\",\"currency\":\"ZAR\",\"amount_due\":1,\"due_date\":\"2030-01-01\"'|external_reference",
            "'\"customer\":\"cus\",\"external_reference\":\"i\",\"currency\":\"ZAR\",\"amount_due\":0,\"due_date\":\"2030-01-01\"'|amount_due",
            "'\"customer\":\"cus\",\"external_reference\":\"i\",\"currency\":\"ZAR\",\"amount_due\":100000000,\"due_date\":\"2030-01-01\"'|amount_due",
            "'\"customer\":\"cus\",\"external_reference\":\"i\",\"currency\":\"ZAR\",\"amount_due\":\"100\",\"due_date\":\"2030-01-01\"'|amount_due",
            "'\"customer\":\"cus\",\"external_reference\":\"i\",\"amount_due\":1,\"due_date\":\"2030-01-01\"'|currency",
            "'\"customer\":\"cus\",\"external_reference\":\"i\",\"currency\":\"ZAR\",\"amount_due\":1'|due_date",
            "'\"customer\":\"cus\",\"external_reference\":\"i\",\"currency\":\"ZAR\",\"amount_due\":1,\"due_date\":\"2030-02-30\"'|due_date",
            "'\"customer\":\"cus\",\"external_reference\":\"i\",\"currency\":\"ZAR\",\"amount_due\":1,\"due_date\":\"31/01/2030\"'|due_date",
            "'\"customer\":\"cus\",\"external_reference\":\"i\",\"currency\":\"ZAR\",\"amount_due\":1,\"bill_date\":\"2026-05-10\",\"due_date\":\"2026-05-09\"'|due_date",
            "'\"customer\":\"cus\",\"external_reference\":\"i\",\"currency\":\"ZAR\",\"amount_due\":1,\"due_date\":\"2000-01-01\"'|due_date",
            "'\"external_reference\":\"i\",\"currency\":\"ZAR\",\"amount_due\":1,\"due_date\":\"2030-01-01\"'|account",
            "'\"customer\":{\"name\":\"x\"},\"external_reference\":\"i\",\"currency\":\"ZAR\",\"amount_due\":1,\"due_date\":\"2030-01-01\"'|customer",
            "'\"customer\":\"cus\",\"external_reference\":\"i\",\"currency\":\"ZAR\",\"amount_due\":1,\"due_date\":\"2030-01-01\",\"status\":\"paid\"'|status",
            "'\"customer\":\"cus\",\"external_reference\":\"i\",\"currency\":\"ZAR\",\"amount_due\":1,\"due_date\":\"2030-01-01\",\"amount_paid\":1'|amount_paid",
    })
    void refusesABadBillNamingTheFieldAndCreatesNothing(String members, String field) {
        assertThat(errorFields(merchant.test().post("/billing/bills", "{" + members + "}").send())).contains(field);
        assertThat(billing.get("/billing/bills").get("data")).isEmpty();
    }

    @Test
    void billsOfAnotherMerchantsCustomerOrAccountAreNotFound() {
        var theirs = new BillingApi(merchants.create().test());
        String theirCustomer = theirs.customer("their-cus", "").get("id").stringValue();
        String theirAccount = theirs.account(theirCustomer, "their-acc", "").get("id").stringValue();

        problem(merchant.test().post("/billing/bills", "{\"customer\":\"" + theirCustomer + "\",\"external_reference\":\"i\","
                + "\"currency\":\"ZAR\",\"amount_due\":1,\"due_date\":\"2030-01-01\"}").send(), 404, "resource_not_found");
        problem(merchant.test().post("/billing/bills", "{\"account\":\"" + theirAccount + "\",\"external_reference\":\"i\","
                + "\"currency\":\"ZAR\",\"amount_due\":1,\"due_date\":\"2030-01-01\"}").send(), 404, "resource_not_found");

        String bill = theirs.bill("customer", theirCustomer, "THEIRS", 100, "").get("id").stringValue();
        problem(merchant.test().get("/billing/bills/" + bill).send(), 404, "resource_not_found");
        problem(merchant.test().get("/billing/bills/THEIRS").send(), 404, "resource_not_found");
        problem(merchant.test().patch("/billing/bills/" + bill, "{\"amount_paid\":1}").send(), 404, "resource_not_found");
        problem(merchant.test().post("/billing/bills/" + bill + "/void", null).send(), 404, "resource_not_found");
        assertThat(theirs.get("/billing/bills/" + bill).get("status").stringValue()).isEqualTo("unpaid");
    }

    @Test
    void patchingAmountPaidReplacesItAndMovesTheStatusBothWays() {
        String path = "/billing/bills/" + billing.bill("customer", customerId, "INV-P", 10000, "").get("id").stringValue();

        JsonNode partly = billing.patch(path, "{\"amount_paid\":4000}");
        assertThat(partly.get("amount_paid").longValue()).isEqualTo(4000);
        assertThat(partly.get("amount_remaining").longValue()).isEqualTo(6000);
        assertThat(partly.get("status").stringValue()).isEqualTo("unpaid");

        JsonNode paid = billing.patch(path, "{\"amount_paid\":10000}");
        assertThat(paid.get("amount_remaining").longValue()).isZero();
        assertThat(paid.get("status").stringValue()).isEqualTo("paid");

        JsonNode back = billing.patch(path, "{\"amount_paid\":9999}");
        assertThat(back.get("status").stringValue()).isEqualTo("unpaid");
        assertThat(back.get("amount_remaining").longValue()).isEqualTo(1);
        assertThat(billing.get(path)).isEqualTo(back);

        assertThat(errorFields(merchant.test().patch(path, "{\"amount_paid\":10001}").send())).containsExactly("amount_paid");
        assertThat(errorFields(merchant.test().patch(path, "{\"amount_paid\":-1}").send())).containsExactly("amount_paid");
        assertThat(errorFields(merchant.test().patch(path, "{\"amount_due\":5}").send())).containsExactly("amount_due");
        assertThat(errorFields(merchant.test().patch(path, "{\"payment_rules\":null}").send())).containsExactly("payment_rules");
        assertThat(billing.get(path).get("amount_paid").longValue()).isEqualTo(9999);
    }

    @Test
    void voidingCancelsAnUnpaidBillOnceAndAVoidedBillCannotBeChanged() {
        String path = "/billing/bills/" + billing.bill("customer", customerId, "INV-V", 500, "").get("id").stringValue();

        JsonNode voided = BillingApi.expect(200, merchant.test().post(path + "/void", null).send());
        assertThat(voided.get("status").stringValue()).isEqualTo("voided");
        JsonNode again = BillingApi.expect(200, merchant.test().post(path + "/void", "{}").send());
        assertThat(again).isEqualTo(voided);

        var patch = merchant.test().patch(path, "{\"amount_paid\":500}").send();
        problem(patch, 409, "invalid_state_transition");
        problem(merchant.test().patch(path, "{\"metadata\":{\"a\":\"b\"}}").send(), 409, "invalid_state_transition");
        assertThat(billing.get(path)).isEqualTo(voided);
        assertThat(errorFields(merchant.test().post(path + "/void", "{\"reason\":\"x\"}").send())).containsExactly("reason");
    }

    @Test
    void aPaidBillCannotBeVoided() {
        String path = "/billing/bills/" + billing.bill("customer", customerId, "INV-PAID", 500, "").get("id").stringValue();
        billing.patch(path, "{\"amount_paid\":500}");

        problem(merchant.test().post(path + "/void", null).send(), 409, "invalid_state_transition");
        assertThat(billing.get(path).get("status").stringValue()).isEqualTo("paid");
    }

    @Test
    void listsBillsFilteredByCustomerAccountAndStatus() {
        String accountId = billing.account(customerId, "acc", "").get("id").stringValue();
        String other = billing.customer("other", "").get("id").stringValue();
        String b1 = billing.bill("customer", customerId, "B1", 100, "").get("id").stringValue();
        String b2 = billing.bill("account", accountId, "B2", 100, "").get("id").stringValue();
        String b3 = billing.bill("customer", other, "B3", 100, "").get("id").stringValue();
        billing.patch("/billing/bills/B2", "{\"amount_paid\":100}");
        BillingApi.expect(200, merchant.test().post("/billing/bills/B3/void", null).send());

        assertThat(ids("/billing/bills")).containsExactly(b3, b2, b1);
        assertThat(ids("/billing/bills?customer=" + customerId)).containsExactly(b2, b1);
        assertThat(ids("/billing/bills?customer=cus")).containsExactly(b2, b1);
        assertThat(ids("/billing/bills?account=acc")).containsExactly(b2);
        assertThat(ids("/billing/bills?account=" + accountId + "&status=paid")).containsExactly(b2);
        assertThat(ids("/billing/bills?status=unpaid")).containsExactly(b1);
        assertThat(ids("/billing/bills?status=voided")).containsExactly(b3);
        assertThat(ids("/billing/bills?customer=cus&status=voided")).isEmpty();
        assertThat(ids("/billing/bills?external_reference=B1")).containsExactly(b1);
        assertThat(ids("/billing/bills?limit=1&cursor=" + b2)).containsExactly(b1);
        assertThat(errorFields(merchant.test().get("/billing/bills?status=overdue").send())).containsExactly("status");
    }

    @Test
    void theOpenApiDocumentDescribesTheBillingEndpoints() {
        JsonNode openapi = BillingApi.expect(200, anonymous().get("/openapi.json").send());
        JsonNode paths = openapi.get("paths");

        assertThat(paths.propertyNames()).contains("/billing/customers", "/billing/customers/{customer}",
                "/billing/accounts", "/billing/accounts/{account}", "/billing/bills", "/billing/bills/{bill}",
                "/billing/bills/{bill}/void", "/billing/test_helpers/payments", "/collect/payments/{id}");
        assertThat(paths.get("/billing/bills").get("post").get("responses").propertyNames()).contains("201", "400", "409");
        JsonNode schemas = openapi.get("components").get("schemas");
        assertThat(schemas.get("CreateBillRequest").get("required").valueStream().map(JsonNode::stringValue))
                .containsExactlyInAnyOrder("external_reference", "currency", "amount_due", "due_date");
        assertThat(schemas.get("Bill").get("properties").propertyNames()).contains("amount_remaining", "obligation_id");
        assertThat(schemas.get("PaymentRules").get("properties").propertyNames()).containsExactly("min_amount",
                "max_amount", "overpayment_allowed", "underpayment_allowed");
    }

    private List<String> ids(String path) {
        return billing.get(path).get("data").valueStream().map(b -> b.get("id").stringValue()).toList();
    }
}
