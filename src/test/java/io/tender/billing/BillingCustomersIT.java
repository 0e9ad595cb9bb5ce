package io.tender.billing;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static io.tender.billing.BillingApi.errorFields;
import static io.tender.billing.BillingApi.problem;
import static org.assertj.core.api.Assertions.assertThat;

/** Customers: spec "Billing resources" and decisions §4, over HTTP. */
class BillingCustomersIT extends ApiIntegrationTest {

    private static final String TIMESTAMP = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$";

    private Merchant merchant;
    private BillingApi billing;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        billing = new BillingApi(merchant.test());
    }

    @Test
    void createsACustomerWithEveryFieldAndReadsItBackByIdAndByExternalReference() {
        var response = merchant.test().post("/billing/customers", """
                {"external_reference":"cust-1001","name":"Ada Lovelace","email":"ada@example.com",
                 "phone":"+27821234567","currency":"ZAR","balance":12500,
                 "payment_rules":{"min_amount":100,"max_amount":50000,"overpayment_allowed":false,"underpayment_allowed":true},
                 "metadata":{"crm_id":"77"}}""").send();
        JsonNode created = BillingApi.expect(201, response);

        assertThat(created.get("id").stringValue()).matches("^bcus_[a-f0-9]{24}$");
        assertThat(created.get("obligation_id").stringValue()).matches("^ob_[a-f0-9]{24}$");
        assertThat(created.get("external_reference").stringValue()).isEqualTo("cust-1001");
        assertThat(created.get("name").stringValue()).isEqualTo("Ada Lovelace");
        assertThat(created.get("email").stringValue()).isEqualTo("ada@example.com");
        assertThat(created.get("phone").stringValue()).isEqualTo("+27821234567");
        assertThat(created.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(created.get("balance").longValue()).isEqualTo(12500);
        JsonNode rules = created.get("payment_rules");
        assertThat(rules.get("min_amount").longValue()).isEqualTo(100);
        assertThat(rules.get("max_amount").longValue()).isEqualTo(50000);
        assertThat(rules.get("overpayment_allowed").booleanValue()).isFalse();
        assertThat(rules.get("underpayment_allowed").booleanValue()).isTrue();
        assertThat(created.get("metadata").get("crm_id").stringValue()).isEqualTo("77");
        assertThat(created.get("created_at").stringValue()).matches(TIMESTAMP);
        assertThat(created.get("updated_at").stringValue()).matches(TIMESTAMP);

        assertThat(billing.get("/billing/customers/" + created.get("id").stringValue())).isEqualTo(created);
        assertThat(billing.get("/billing/customers/cust-1001")).isEqualTo(created);
    }

    @Test
    void responsesOmitCurrencyBalanceAndRulesThatWereNeverSet() {
        JsonNode bare = billing.customer("bare", "");
        assertThat(bare.has("currency")).isFalse();
        assertThat(bare.has("balance")).isFalse();
        assertThat(bare.has("payment_rules")).isFalse();
        assertThat(bare.has("phone")).isFalse();
        assertThat(bare.has("metadata")).isFalse();

        JsonNode currencyOnly = billing.customer("currency-only", "\"currency\":\"USD\"");
        assertThat(currencyOnly.get("currency").stringValue()).isEqualTo("USD");
        assertThat(currencyOnly.has("balance")).isFalse();
        assertThat(billing.get("/billing/customers/currency-only").has("balance")).isFalse();
    }

    @ParameterizedTest(name = "{0} -> 400 on {1}")
    @CsvSource(delimiter = '|', value = {
            "'\"external_reference\":\"bcus_123\",\"name\":\"A\",\"email\":\"a@b.co\"'|external_reference",
            "'\"name\":\"A\",\"email\":\"a@b.co\"'|external_reference",
            "'\"external_reference\":\"has space\",\"name\":\"A\",\"email\":\"a@b.co\"'|external_reference",
            "'\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"a@b.co\",\"balance\":100'|currency",
            "'\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"a@b.co\",\"currency\":\"XXX\"'|currency",
            "'\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"a@b.co\",\"currency\":\"zar\"'|currency",
            "'\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"a@b.co\",\"currency\":\"ZAR\",\"balance\":1.5'|balance",
            "'\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"a@b.co\",\"currency\":\"ZAR\",\"balance\":1000000000000'|balance",
            "'\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"a@b.co\",\"phone\":\"0821234567\"'|phone",
            "'\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"not-an-email\"'|email",
            "'\"external_reference\":\"c\",\"email\":\"a@b.co\"'|name",
            "'\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"a@b.co\",\"nickname\":\"x\"'|nickname",
            "'\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"a@b.co\",\"payment_rules\":{\"min_amount\":500,\"max_amount\":100,\"overpayment_allowed\":true,\"underpayment_allowed\":true}'|payment_rules.max_amount",
            "'\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"a@b.co\",\"payment_rules\":{\"min_amount\":0,\"overpayment_allowed\":true,\"underpayment_allowed\":true}'|payment_rules.min_amount",
            "'\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"a@b.co\",\"payment_rules\":{\"overpayment_allowed\":true}'|payment_rules.underpayment_allowed",
            "'\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"a@b.co\",\"metadata\":{\"k\":7}'|metadata.k",
    })
    void refusesABadCustomerNamingTheFieldAndCreatesNothing(String members, String field) {
        var response = merchant.test().post("/billing/customers", "{" + members + "}").send();

        assertThat(errorFields(response)).contains(field);
        assertThat(billing.get("/billing/customers").get("data")).isEmpty();
    }

    @Test
    void metadataIsLimitedToTwentyKeys() {
        String keys = String.join(",", IntStream.range(0, 21).mapToObj(i -> "\"k" + i + "\":\"v\"").toList());
        var response = merchant.test().post("/billing/customers",
                "{\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"a@b.co\",\"metadata\":{" + keys + "}}").send();

        assertThat(errorFields(response)).containsExactly("metadata");
    }

    @Test
    void aDuplicateExternalReferenceIsRefusedAndTheFirstCustomerStaysAsItWas() {
        JsonNode first = billing.customer("dup-1", "\"currency\":\"ZAR\",\"balance\":100");

        var second = merchant.test().post("/billing/customers",
                "{\"external_reference\":\"dup-1\",\"name\":\"Other\",\"email\":\"o@example.com\"}").send();

        problem(second, 409, "resource_already_exists");
        assertThat(billing.get("/billing/customers/dup-1")).isEqualTo(first);
        // The same reference in another merchant, or in live mode, is another customer.
        new BillingApi(merchant.live()).customer("dup-1", "");
        new BillingApi(merchants.create().test()).customer("dup-1", "");
    }

    @Test
    void patchReplacesTheBalanceChangesContactDetailsAndMergesMetadata() {
        billing.customer("p-1", "\"currency\":\"ZAR\",\"balance\":5000,\"phone\":\"+27820000000\","
                + "\"metadata\":{\"keep\":\"1\",\"drop\":\"2\",\"change\":\"3\"}");

        JsonNode patched = billing.patch("/billing/customers/p-1", """
                {"balance":-250,"name":"Ada King","phone":null,"metadata":{"drop":null,"change":"33","add":"4"}}""");

        assertThat(patched.get("balance").longValue()).isEqualTo(-250);
        assertThat(patched.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(patched.get("name").stringValue()).isEqualTo("Ada King");
        assertThat(patched.get("email").stringValue()).isEqualTo("ada@example.com");
        assertThat(patched.has("phone")).isFalse();
        assertThat(patched.get("metadata").propertyNames()).containsExactlyInAnyOrder("keep", "change", "add");
        assertThat(patched.get("metadata").get("change").stringValue()).isEqualTo("33");
        assertThat(billing.get("/billing/customers/p-1")).isEqualTo(patched);
    }

    @Test
    void aBalanceNeedsACurrencyWhichCanBeSetOnceByPatch() {
        JsonNode customer = billing.customer("p-2", "");
        String path = "/billing/customers/" + customer.get("id").stringValue();

        assertThat(errorFields(merchant.test().patch(path, "{\"balance\":100}").send())).containsExactly("currency");
        assertThat(billing.get(path).has("balance")).isFalse();

        JsonNode set = billing.patch(path, "{\"currency\":\"ZAR\",\"balance\":100}");
        assertThat(set.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(set.get("balance").longValue()).isEqualTo(100);

        assertThat(billing.patch(path, "{\"currency\":\"ZAR\",\"balance\":300}").get("balance").longValue()).isEqualTo(300);
        problem(merchant.test().patch(path, "{\"currency\":\"USD\"}").send(), 409, "conflict");
        assertThat(billing.get(path).get("currency").stringValue()).isEqualTo("ZAR");
    }

    @Test
    void patchRefusesRemovingRequiredFieldsAndUnknownOnes() {
        billing.customer("p-3", "");

        assertThat(errorFields(merchant.test().patch("/billing/customers/p-3",
                "{\"name\":null,\"email\":null,\"external_reference\":\"new\"}").send()))
                .containsExactlyInAnyOrder("name", "email", "external_reference");
        assertThat(billing.get("/billing/customers/p-3").get("name").stringValue()).isEqualTo("Ada Lovelace");
    }

    @Test
    void paymentRulesCanBeSetAndRemovedByPatch() {
        billing.customer("p-4", "\"currency\":\"ZAR\"");

        JsonNode withRules = billing.patch("/billing/customers/p-4",
                "{\"payment_rules\":{\"overpayment_allowed\":true,\"underpayment_allowed\":false}}");
        assertThat(withRules.get("payment_rules").get("overpayment_allowed").booleanValue()).isTrue();
        assertThat(withRules.get("payment_rules").has("min_amount")).isFalse();

        assertThat(billing.patch("/billing/customers/p-4", "{\"payment_rules\":null}").has("payment_rules")).isFalse();
    }

    @Test
    void listsCustomersNewestFirstWithCursorPaginationAndAnExternalReferenceFilter() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(billing.customer("list-" + i, "").get("id").stringValue());
        }

        var first = merchant.test().get("/billing/customers?limit=2").send();
        JsonNode page = BillingApi.expect(200, first);
        assertThat(page.get("data").valueStream().map(c -> c.get("id").stringValue()))
                .containsExactly(ids.get(4), ids.get(3));
        assertThat(page.get("has_more").booleanValue()).isTrue();
        assertThat(first.header("Next-Cursor")).isEqualTo(page.get("next_cursor").stringValue());

        JsonNode last = billing.get("/billing/customers?limit=3&cursor=" + page.get("next_cursor").stringValue());
        assertThat(last.get("data").valueStream().map(c -> c.get("id").stringValue()))
                .containsExactly(ids.get(2), ids.get(1), ids.get(0));
        assertThat(last.get("has_more").booleanValue()).isFalse();
        assertThat(last.get("next_cursor").isNull()).isTrue();

        JsonNode filtered = billing.get("/billing/customers?external_reference=list-3");
        assertThat(filtered.get("data")).hasSize(1);
        assertThat(filtered.get("data").get(0).get("id").stringValue()).isEqualTo(ids.get(3));

        assertThat(errorFields(merchant.test().get("/billing/customers?status=paid").send())).containsExactly("status");
        assertThat(errorFields(merchant.test().get("/billing/customers?cursor=bill_1").send())).containsExactly("cursor");
    }

    @Test
    void anotherMerchantAndTheOtherModeSeeNoneOfTheCustomers() {
        JsonNode customer = billing.customer("mine", "\"currency\":\"ZAR\",\"balance\":10");
        String id = customer.get("id").stringValue();
        var other = merchants.create().test();

        for (var api : List.of(other, merchant.live())) {
            problem(api.get("/billing/customers/" + id).send(), 404, "resource_not_found");
            problem(api.get("/billing/customers/mine").send(), 404, "resource_not_found");
            problem(api.patch("/billing/customers/" + id, "{\"balance\":0}").send(), 404, "resource_not_found");
            assertThat(BillingApi.expect(200, api.get("/billing/customers").send()).get("data")).isEmpty();
        }
        assertThat(billing.get("/billing/customers/" + id).get("balance").longValue()).isEqualTo(10);
    }

    @Test
    void publicKeysMayNotCallBilling() {
        problem(merchant.publicTest().get("/billing/customers").send(), 403, "operation_not_allowed");
        problem(merchant.publicTest().post("/billing/customers",
                "{\"external_reference\":\"c\",\"name\":\"A\",\"email\":\"a@b.co\"}").send(), 403, "operation_not_allowed");
    }

    @Test
    void aRetriedCreateWithTheSameIdempotencyKeyReturnsTheSameCustomer() {
        String body = "{\"external_reference\":\"idem\",\"name\":\"A\",\"email\":\"a@b.co\"}";
        var first = merchant.test().post("/billing/customers", body).idempotencyKey("create-idem").send();
        var again = merchant.test().post("/billing/customers", body).idempotencyKey("create-idem").send();

        assertThat(first.status()).isEqualTo(201);
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.bytes()).isEqualTo(first.bytes());
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(billing.get("/billing/customers").get("data")).hasSize(1);
    }
}
