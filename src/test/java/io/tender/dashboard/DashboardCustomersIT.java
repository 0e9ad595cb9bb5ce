package io.tender.dashboard;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's Customers pages over real HTTP (decisions §11), with customers, accounts, bills and payments made
 * through the real billing API under a test key: the list holds only the merchant's customers of the URL's mode and
 * finds one by email typed in another case, by the start of their name or by id; a customer's page shows their
 * accounts, balances, bills and payments; a bill's page its amounts and the payments applied to it; pages follow one
 * another without a gap or a repeat; and another merchant's or mode's id is a not-found page that shows nothing of it.
 */
class DashboardCustomersIT extends ApiIntegrationTest {

    private static final Pattern CUSTOMER_LINKS = Pattern.compile("href=\"/dashboard/test/customers/(bcus_[a-f0-9]+)\"");
    private static final Pattern BILL_LINKS = Pattern.compile("href=\"/dashboard/test/customers/bills/(bill_[a-f0-9]+)\"");
    private static final String PARTIAL_PAYMENTS =
            "\"payment_rules\":{\"overpayment_allowed\":false,\"underpayment_allowed\":true}";

    private Merchant merchant;
    private DashboardClient viewer;

    @BeforeEach
    void merchantWithAViewer() {
        merchant = merchants.create();
        viewer = DashboardClient.member(base(), merchants, merchant, "viewer", "127.0.0.131");
    }

    private static JsonNode created(Api.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json();
    }

    private static String customer(Api api, String name, String email, String extra) {
        return created(api.post("/billing/customers", "{\"external_reference\":\"c-" + UUID.randomUUID()
                + "\",\"name\":\"" + name + "\",\"email\":\"" + email + "\"" + (extra.isEmpty() ? "" : "," + extra)
                + "}").send()).get("id").stringValue();
    }

    private static List<String> links(Pattern pattern, String body) {
        List<String> ids = new ArrayList<>();
        Matcher m = pattern.matcher(body);
        while (m.find()) {
            if (!ids.contains(m.group(1))) {
                ids.add(m.group(1));
            }
        }
        return ids;
    }

    @Test
    void theListHoldsOnlyTheMerchantsCustomersOfTheModeAndFindsOneByEmailInAnotherCase() {
        String grace = customer(merchant.test(), "Grace Hopper", "Grace.Hopper@Example.com", "");
        String ada = customer(merchant.test(), "Ada Lovelace", "ada@example.com", "");
        String live = customer(merchant.live(), "Live Lena", "lena@example.com", "");
        String foreign = customer(merchants.create().test(), "Grace Hopper", "grace.hopper@example.com", "");

        var all = viewer.get("/dashboard/test/customers");
        assertThat(all.status()).isEqualTo(200);
        assertThat(links(CUSTOMER_LINKS, all.body())).as("newest first").containsExactly(ada, grace);
        assertThat(all.body()).contains("Grace Hopper").doesNotContain(live).doesNotContain(foreign)
                .doesNotContain("Live Lena");

        var byEmail = viewer.get("/dashboard/test/customers?q=GRACE.HOPPER%40example.COM");
        assertThat(byEmail.status()).isEqualTo(200);
        assertThat(links(CUSTOMER_LINKS, byEmail.body())).containsExactly(grace);
        assertThat(byEmail.body()).as("the search as typed").contains("value=\"GRACE.HOPPER@example.COM\"");
        assertThat(links(CUSTOMER_LINKS, viewer.get("/dashboard/test/customers?q=gRa").body()))
                .as("the start of a name, any case").containsExactly(grace);
        assertThat(links(CUSTOMER_LINKS, viewer.get("/dashboard/test/customers?q=" + ada).body()))
                .containsExactly(ada);
        assertThat(viewer.get("/dashboard/test/customers?q=nobody%40example.com").body())
                .contains("No customers match this search");
        for (String wildcard : List.of("%25", "_", "%5C")) {
            assertThat(links(CUSTOMER_LINKS, viewer.get("/dashboard/test/customers?q=" + wildcard).body()))
                    .as("a LIKE wildcard is a character to match, not a pattern").isEmpty();
        }
        var foreignSearch = viewer.get("/dashboard/test/customers?q=" + foreign);
        assertThat(links(CUSTOMER_LINKS, foreignSearch.body())).isEmpty();
        assertThat(foreignSearch.body()).contains("No customers match this search");

        var liveList = viewer.get("/dashboard/live/customers");
        assertThat(liveList.body()).contains("/dashboard/live/customers/" + live).contains("Live Lena")
                .doesNotContain(grace).doesNotContain(ada);
    }

    @Test
    void aCustomersPageShowsTheirAccountsBalancesBillsAndPaymentsAndABillsPageItsAmounts() {
        Api api = merchant.test();
        String customer = customer(api, "Grace Hopper", "grace@example.com",
                "\"currency\":\"ZAR\",\"balance\":15000," + PARTIAL_PAYMENTS);
        JsonNode account = created(api.post("/billing/accounts", "{\"customer\":\"" + customer
                + "\",\"external_reference\":\"acc-water\",\"name\":\"Water and rates\",\"currency\":\"ZAR\","
                + "\"balance\":-2500}").send());
        String accountId = account.get("id").stringValue();
        JsonNode bill = created(api.post("/billing/bills", "{\"account\":\"" + accountId
                + "\",\"external_reference\":\"INV-77\",\"currency\":\"ZAR\",\"amount_due\":25000,"
                + "\"bill_date\":\"2029-12-01\",\"due_date\":\"2030-01-31\"}").send());
        String billId = bill.get("id").stringValue();
        created(api.post("/billing/bills", "{\"customer\":\"" + customer
                + "\",\"external_reference\":\"INV-78\",\"currency\":\"ZAR\",\"amount_due\":1000,"
                + "\"due_date\":\"2030-02-28\"}").send());
        String paid = created(api.post("/billing/test_helpers/payments", "{\"bill\":\"" + billId
                + "\",\"amount\":10000,\"currency\":\"ZAR\"}").send()).get("id").stringValue();
        String toBalance = created(api.post("/billing/test_helpers/payments", "{\"customer\":\"" + customer
                + "\",\"amount\":5000,\"currency\":\"ZAR\"}").send()).get("id").stringValue();

        var page = viewer.get("/dashboard/test/customers/" + customer);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("Grace Hopper").contains("grace@example.com")
                .as("the balance after the payment against it").contains("ZAR 100.00 owed")
                .as("the account, its credit").contains("Water and rates").contains("ZAR 25.00 in credit")
                .contains("href=\"/dashboard/test/customers/accounts/" + accountId + "\"")
                .as("both bills, in words").contains("ZAR 250.00").contains("ZAR 150.00").contains("ZAR 10.00")
                .contains("Unpaid").contains("31 Jan 2030")
                .as("the payments, to their pages").contains("href=\"/dashboard/test/payments/" + paid + "\"")
                .contains("href=\"/dashboard/test/payments/" + toBalance + "\"").contains("ZAR 50.00");
        assertThat(links(BILL_LINKS, page.body())).hasSize(2).contains(billId);

        var billPage = viewer.get("/dashboard/test/customers/bills/" + billId);
        assertThat(billPage.status()).isEqualTo(200);
        assertThat(billPage.body()).contains("Amount due").contains("ZAR 250.00")
                .contains("Paid").contains("ZAR 100.00").contains("Outstanding").contains("ZAR 150.00")
                .contains("Unpaid").contains("INV-77").contains("1 Dec 2029").contains("31 Jan 2030")
                .contains("Water and rates").contains("Grace Hopper")
                .contains("href=\"/dashboard/test/payments/" + paid + "\"")
                .doesNotContain(toBalance);

        var accountPage = viewer.get("/dashboard/test/customers/accounts/" + accountId);
        assertThat(accountPage.status()).isEqualTo(200);
        assertThat(accountPage.body()).contains("Water and rates").contains("ZAR 25.00 in credit")
                .contains("acc-water").contains("href=\"/dashboard/test/customers/bills/" + billId + "\"")
                .contains("No payment has been applied yet.");

        // The bill paid in full is "Paid" in words on the list, and the status filter finds it alone.
        created(api.post("/billing/test_helpers/payments", "{\"bill\":\"" + billId
                + "\",\"amount\":15000,\"currency\":\"ZAR\"}").send());
        var paidBills = viewer.get("/dashboard/test/customers/bills?status=paid");
        assertThat(links(BILL_LINKS, paidBills.body())).containsExactly(billId);
        assertThat(paidBills.body()).contains(">Paid<")
                .as("the bills table alone, not the payments-applied one too").doesNotContain("Refunded since");
        assertThat(links(BILL_LINKS, viewer.get("/dashboard/test/customers/bills?status=unpaid").body()))
                .hasSize(1).doesNotContain(billId);
        assertThat(links(BILL_LINKS, viewer.get("/dashboard/test/customers/bills?due_from=2030-02-01").body()))
                .hasSize(1).doesNotContain(billId);
        assertThat(links(BILL_LINKS, viewer.get("/dashboard/test/customers/bills?q=INV-77").body()))
                .containsExactly(billId);

        var refused = viewer.get("/dashboard/test/customers/bills?due_from=2030-02-30&status=owing");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body()).contains("must be a date such as 2026-05-20").contains("id=\"b-from-error\"")
                .contains("must be one of unpaid, paid, voided");
        assertThat(links(BILL_LINKS, refused.body())).isEmpty();
    }

    @Test
    void anotherMerchantsOrModesCustomerAccountAndBillAreNotFoundPages() {
        Merchant other = merchants.create();
        String customer = customer(other.test(), "Other Shop Customer", "secret-customer@example.com", "");
        String account = created(other.test().post("/billing/accounts", "{\"customer\":\"" + customer
                + "\",\"external_reference\":\"a-1\",\"name\":\"Their account\"}").send()).get("id").stringValue();
        String bill = created(other.test().post("/billing/bills", "{\"customer\":\"" + customer
                + "\",\"external_reference\":\"B-1\",\"currency\":\"ZAR\",\"amount_due\":4321,"
                + "\"due_date\":\"2030-01-31\"}").send()).get("id").stringValue();
        String mine = customer(merchant.live(), "Live Customer", "live-customer@example.com", "");

        for (String path : List.of("/dashboard/test/customers/" + customer,
                "/dashboard/test/customers/accounts/" + account, "/dashboard/test/customers/bills/" + bill,
                "/dashboard/test/customers/" + mine, "/dashboard/test/customers/bcus_unknown",
                "/dashboard/test/customers/accounts/nothing")) {
            var page = viewer.get(path);
            assertThat(page.status()).as(path).isEqualTo(404);
            assertThat(page.body()).as(path).contains("not found").contains("in your")
                    .doesNotContain("Other Shop Customer").doesNotContain("secret-customer@example.com")
                    .doesNotContain("Their account").doesNotContain("ZAR 43.21").doesNotContain("Live Customer");
        }
        assertThat(viewer.get("/dashboard/live/customers/" + mine).status()).isEqualTo(200);
    }

    @Test
    void pagesFollowOneAnotherWithoutAGapOrARepeat() {
        List<String> made = new ArrayList<>();
        for (int i = 0; i < CustomersController.PAGE_SIZE + 3; i++) {
            made.add(customer(merchant.test(), "Pager " + i, "pager" + i + "@example.com", ""));
        }
        var first = viewer.get("/dashboard/test/customers?q=pager");
        List<String> seen = new ArrayList<>(links(CUSTOMER_LINKS, first.body()));
        assertThat(seen).hasSize(CustomersController.PAGE_SIZE);
        Matcher next = Pattern.compile("href=\"([^\"]+)\" rel=\"next\"").matcher(first.body());
        assertThat(next.find()).as("a next page").isTrue();
        // A customer made meanwhile is newer than every row: it shifts nothing on the next page.
        customer(merchant.test(), "Pager late", "late@example.com", "");
        var second = viewer.get(next.group(1).replace("&amp;", "&"));
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.body()).contains("First page").doesNotContain("rel=\"next\"");
        seen.addAll(links(CUSTOMER_LINKS, second.body()));
        assertThat(seen).containsExactlyElementsOf(made.reversed());

        var forged = viewer.get("/dashboard/test/customers?cursor=bm90LWEtY3Vyc29y");
        assertThat(forged.status()).isEqualTo(400);
        assertThat(forged.body()).contains("not one of this list");
    }
}
