package io.tender.billing;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static io.tender.billing.BillingApi.errorFields;
import static io.tender.billing.BillingApi.problem;
import static org.assertj.core.api.Assertions.assertThat;

/** Accounts under customers, nested creation included (spec "Billing", decisions §4). */
class BillingAccountsIT extends ApiIntegrationTest {

    private Merchant merchant;
    private BillingApi billing;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        billing = new BillingApi(merchant.test());
    }

    @Test
    void createsAnAccountUnderAnExistingCustomerNamedByIdOrByReference() {
        JsonNode customer = billing.customer("cus-1", "");
        String customerId = customer.get("id").stringValue();

        JsonNode byId = billing.account(customerId, "acc-1", "\"currency\":\"ZAR\",\"balance\":9900,"
                + "\"payment_rules\":{\"min_amount\":500,\"overpayment_allowed\":false,\"underpayment_allowed\":true}");
        JsonNode byReference = billing.account("cus-1", "acc-2", "");

        assertThat(byId.get("id").stringValue()).matches("^bacc_[a-f0-9]{24}$");
        assertThat(byId.get("obligation_id").stringValue()).matches("^ob_[a-f0-9]{24}$")
                .isNotEqualTo(customer.get("obligation_id").stringValue());
        assertThat(byId.get("customer_id").stringValue()).isEqualTo(customerId);
        assertThat(byId.get("external_reference").stringValue()).isEqualTo("acc-1");
        assertThat(byId.get("name").stringValue()).isEqualTo("Main account");
        assertThat(byId.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(byId.get("balance").longValue()).isEqualTo(9900);
        assertThat(byId.get("payment_rules").get("min_amount").longValue()).isEqualTo(500);
        assertThat(byReference.get("customer_id").stringValue()).isEqualTo(customerId);
        assertThat(byReference.has("currency")).isFalse();
        assertThat(byReference.has("balance")).isFalse();

        assertThat(billing.get("/billing/accounts/" + byId.get("id").stringValue())).isEqualTo(byId);
        assertThat(billing.get("/billing/accounts/acc-1")).isEqualTo(byId);
    }

    @Test
    void aNestedCustomerObjectIsCreatedFirst() {
        JsonNode account = billing.create("/billing/accounts", """
                {"customer":{"external_reference":"nested-cus","name":"Grace Hopper","email":"grace@example.com",
                             "currency":"ZAR","balance":100},
                 "external_reference":"nested-acc","name":"Electricity","currency":"ZAR","balance":2500}""");

        JsonNode customer = billing.get("/billing/customers/nested-cus");
        assertThat(account.get("customer_id")).isEqualTo(customer.get("id"));
        assertThat(customer.get("name").stringValue()).isEqualTo("Grace Hopper");
        assertThat(customer.get("balance").longValue()).isEqualTo(100);
        assertThat(account.get("balance").longValue()).isEqualTo(2500);
    }

    @Test
    void aNestedCreateIsAllOrNothingWhenTheAccountReferenceIsTaken() {
        billing.account(billing.customer("owner", "").get("id").stringValue(), "taken", "");

        var response = merchant.test().post("/billing/accounts", """
                {"customer":{"external_reference":"never-created","name":"Grace","email":"grace@example.com"},
                 "external_reference":"taken","name":"Second"}""").send();

        problem(response, 409, "resource_already_exists");
        problem(merchant.test().get("/billing/customers/never-created").send(), 404, "resource_not_found");
        assertThat(billing.get("/billing/customers").get("data")).hasSize(1);
    }

    @Test
    void errorsInsideTheNestedCustomerNameTheirPath() {
        var response = merchant.test().post("/billing/accounts", """
                {"customer":{"external_reference":"bcus_x","name":"G","email":"nope","colour":"red"},
                 "external_reference":"bacc_1","name":"A","balance":5}""").send();

        assertThat(errorFields(response)).containsExactlyInAnyOrder("customer.external_reference", "customer.email",
                "customer.colour", "external_reference", "currency");
        assertThat(errorFields(merchant.test().post("/billing/accounts",
                "{\"customer\":42,\"external_reference\":\"a\",\"name\":\"A\"}").send())).containsExactly("customer");
        assertThat(errorFields(merchant.test().post("/billing/accounts",
                "{\"external_reference\":\"a\",\"name\":\"A\"}").send())).containsExactly("customer");
        assertThat(billing.get("/billing/customers").get("data")).isEmpty();
    }

    @Test
    void anotherMerchantsCustomerCannotOwnAnAccount() {
        JsonNode foreign = new BillingApi(merchants.create().test()).customer("theirs", "");

        var byId = merchant.test().post("/billing/accounts", "{\"customer\":\"" + foreign.get("id").stringValue()
                + "\",\"external_reference\":\"a\",\"name\":\"A\"}").send();
        var byReference = merchant.test().post("/billing/accounts",
                "{\"customer\":\"theirs\",\"external_reference\":\"a\",\"name\":\"A\"}").send();

        problem(byId, 404, "resource_not_found");
        problem(byReference, 404, "resource_not_found");
        assertThat(billing.get("/billing/accounts").get("data")).isEmpty();
    }

    @Test
    void patchReplacesTheBalanceOfThatAccountOnly() {
        String customer = billing.customer("two-accounts", "\"currency\":\"ZAR\",\"balance\":7").get("id").stringValue();
        billing.account(customer, "water", "\"currency\":\"ZAR\",\"balance\":1000");
        billing.account(customer, "power", "\"currency\":\"ZAR\",\"balance\":2000");

        JsonNode water = billing.patch("/billing/accounts/water", "{\"balance\":150,\"name\":\"Water\",\"metadata\":{\"m\":\"1\"}}");

        assertThat(water.get("balance").longValue()).isEqualTo(150);
        assertThat(water.get("name").stringValue()).isEqualTo("Water");
        assertThat(water.get("metadata").get("m").stringValue()).isEqualTo("1");
        assertThat(billing.get("/billing/accounts/power").get("balance").longValue()).isEqualTo(2000);
        assertThat(billing.get("/billing/customers/two-accounts").get("balance").longValue()).isEqualTo(7);
    }

    @Test
    void patchRefusesABalanceWithoutCurrencyAndAnotherCurrency() {
        String customer = billing.customer("c", "").get("id").stringValue();
        billing.account(customer, "no-currency", "");
        billing.account(customer, "in-zar", "\"currency\":\"ZAR\"");

        assertThat(errorFields(merchant.test().patch("/billing/accounts/no-currency", "{\"balance\":1}").send()))
                .containsExactly("currency");
        problem(merchant.test().patch("/billing/accounts/in-zar", "{\"currency\":\"EUR\",\"balance\":1}").send(),
                409, "conflict");
        assertThat(billing.get("/billing/accounts/in-zar").has("balance")).isFalse();
        assertThat(errorFields(merchant.test().patch("/billing/accounts/in-zar", "{\"customer_id\":\"x\"}").send()))
                .containsExactly("customer_id");
    }

    @Test
    void refusesReservedPrefixesAndDuplicateReferences() {
        String customer = billing.customer("c", "").get("id").stringValue();
        billing.account(customer, "acc", "");

        assertThat(errorFields(merchant.test().post("/billing/accounts", "{\"customer\":\"" + customer
                + "\",\"external_reference\":\"bacc_mine\",\"name\":\"A\"}").send())).containsExactly("external_reference");
        problem(merchant.test().post("/billing/accounts", "{\"customer\":\"" + customer
                + "\",\"external_reference\":\"acc\",\"name\":\"A\"}").send(), 409, "resource_already_exists");
        // bcus_ is reserved for customers and bills, not for accounts.
        billing.account(customer, "bcus_is_fine_here", "");
    }

    @Test
    void listsAccountsFilteredByCustomerNamedByIdOrReference() {
        String ada = billing.customer("ada", "").get("id").stringValue();
        String grace = billing.customer("grace", "").get("id").stringValue();
        String a1 = billing.account(ada, "a1", "").get("id").stringValue();
        String a2 = billing.account(ada, "a2", "").get("id").stringValue();
        String g1 = billing.account(grace, "g1", "").get("id").stringValue();

        assertThat(ids(billing.get("/billing/accounts"))).containsExactly(g1, a2, a1);
        assertThat(ids(billing.get("/billing/accounts?customer=" + ada))).containsExactly(a2, a1);
        assertThat(ids(billing.get("/billing/accounts?customer=grace"))).containsExactly(g1);
        assertThat(ids(billing.get("/billing/accounts?customer=nobody"))).isEmpty();
        assertThat(ids(billing.get("/billing/accounts?customer=ada&limit=1&cursor=" + a2))).containsExactly(a1);
        assertThat(ids(new BillingApi(merchants.create().test()).get("/billing/accounts?customer=" + ada))).isEmpty();
    }

    @Test
    void anotherMerchantSeesNoneOfTheAccounts() {
        String id = billing.account(billing.customer("c", "").get("id").stringValue(), "acc", "").get("id").stringValue();
        var other = merchants.create().test();

        problem(other.get("/billing/accounts/" + id).send(), 404, "resource_not_found");
        problem(other.get("/billing/accounts/acc").send(), 404, "resource_not_found");
        problem(other.patch("/billing/accounts/" + id, "{\"name\":\"x\"}").send(), 404, "resource_not_found");
        problem(merchant.live().get("/billing/accounts/" + id).send(), 404, "resource_not_found");
    }

    private static java.util.List<String> ids(JsonNode page) {
        return page.get("data").valueStream().map(a -> a.get("id").stringValue()).toList();
    }
}
