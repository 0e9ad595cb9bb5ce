package io.tender.dashboard;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Browser;
import io.tender.support.Browser.Window;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.By;
import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.UUID;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.pin;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Customers and Redemptions pages as a merchant's finance lead uses them, in Debian's chromium: sign in, search a
 * customer by email typed in another case, open them, open one of their bills and an account, list the bills, then
 * the redemptions and one redemption. axe-core runs on every page (no serious or critical finding), and each is saved
 * at phone and desktop width as {@code target/screenshots/dashboard/{phone,desktop}-billing-<n>-<name>.png}.
 */
class DashboardCustomersBrowserIT extends ApiIntegrationTest {

    private static final String PASSWORD = "a long and memorable passphrase";
    private static final String RULES = "\"payment_rules\":{\"overpayment_allowed\":false,\"underpayment_allowed\":true}";

    @ParameterizedTest
    @EnumSource(Window.class)
    void aFinanceLeadFindsACustomerTheirBillAndARedemption(Window window) {
        Merchant merchant = merchants.create();
        Api api = merchant.test();
        String email = "finance-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        for (String name : List.of("Sipho Dlamini", "Aisha Patel", "Johan van der Merwe")) {
            created(api.post("/billing/customers", "{\"external_reference\":\"crm-" + UUID.randomUUID()
                    + "\",\"name\":\"" + name + "\",\"email\":\"" + name.toLowerCase().replace(' ', '.')
                    + "@example.co.za\",\"currency\":\"ZAR\",\"balance\":" + (name.length() * 1000) + "}").send());
        }
        String customer = created(api.post("/billing/customers", "{\"external_reference\":\"crm-thandi-0042\","
                + "\"name\":\"Thandi Nkosi\",\"email\":\"thandi.nkosi@example.co.za\",\"phone\":\"+27821234567\","
                + "\"currency\":\"ZAR\",\"balance\":120000," + RULES + "}").send()).get("id").stringValue();
        String account = created(api.post("/billing/accounts", "{\"customer\":\"" + customer
                + "\",\"external_reference\":\"ACC-2291-WATER\",\"name\":\"Water and electricity\","
                + "\"currency\":\"ZAR\",\"balance\":-4550}").send()).get("id").stringValue();
        String bill = created(api.post("/billing/bills", "{\"account\":\"" + account
                + "\",\"external_reference\":\"INV-2026-000117\",\"currency\":\"ZAR\",\"amount_due\":185075,"
                + "\"bill_date\":\"2026-10-01\",\"due_date\":\"2026-10-31\"}").send()).get("id").stringValue();
        created(api.post("/billing/bills", "{\"customer\":\"" + customer
                + "\",\"external_reference\":\"INV-2026-000118\",\"currency\":\"ZAR\",\"amount_due\":49900,"
                + "\"due_date\":\"2030-01-31\"}").send());
        created(api.post("/billing/test_helpers/payments", "{\"bill\":\"" + bill
                + "\",\"amount\":85075,\"currency\":\"ZAR\"}").send());
        created(api.post("/billing/test_helpers/payments", "{\"customer\":\"" + customer
                + "\",\"amount\":20000,\"currency\":\"ZAR\"}").send());
        String voucher = validPin();
        JsonNode partial = created(api.post("/collect/redemptions", oneVoucher(voucher, 2500)).send());
        String changePin = partial.get("change_voucher").get("pin").stringValue();
        created(api.post("/collect/redemptions", oneVoucher(pin("0002"))).send());
        created(api.post("/collect/redemptions", oneVoucher(validPin())).send());
        String link = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"" + email + "\",\"role\":\"viewer\"}").send().json().get("sign_in_url").stringValue();
        String prefix = window.name().toLowerCase() + "-billing-";

        try (Browser browser = Browser.open("dashboard", window)) {
            browser.get(link).awaitText("Choose your password");
            browser.type("New password", PASSWORD).type("The same password again", PASSWORD)
                    .click("Set password and sign in").awaitUrl(base() + "/dashboard/test");

            browser.click("Customers").awaitText("Search customers").awaitText("Sipho Dlamini");
            assertThat(browser.findAll(By.cssSelector("table.listing tbody tr"))).hasSize(4);
            look(browser, prefix + "1-customers");

            browser.type("Search customers", "THANDI.Nkosi@Example.co.za").click("Search").awaitText("Show all customers");
            assertThat(browser.findAll(By.cssSelector("table.listing tbody tr"))).hasSize(1);
            assertThat(browser.text()).contains("Thandi Nkosi").doesNotContain("Sipho Dlamini");
            look(browser, prefix + "2-customers-by-email");

            browser.click("Thandi Nkosi").awaitText("Accounts").awaitText("Water and electricity");
            assertThat(browser.text()).contains("ZAR 1,000.00 owed").contains("ZAR 45.50 in credit")
                    .contains("ZAR 1,850.75").contains("ZAR 1,000.00").contains("Unpaid").contains("overdue")
                    .contains("ZAR 850.75").contains("ZAR 200.00");
            look(browser, prefix + "3-customer");

            browser.find(By.cssSelector("a[href$='/customers/bills/" + bill + "']")).click();
            browser.awaitText("Payments applied").awaitText("INV-2026-000117");
            assertThat(browser.text()).contains("Outstanding").contains("ZAR 1,000.00").contains("ZAR 850.75");
            look(browser, prefix + "4-bill");

            browser.click("Water and electricity").awaitText("Paid against this balance");
            look(browser, prefix + "5-account");

            browser.click("Customers").awaitText("Search customers");
            browser.click("Bills").awaitText("Due from");
            browser.select("Status", "Unpaid").click("Apply filters").awaitText("Clear filters");
            assertThat(browser.findAll(By.cssSelector("table.listing tbody tr"))).hasSize(2);
            look(browser, prefix + "6-bills-unpaid");

            browser.click("Redemptions").awaitText("Voucher PINs and tokens show only their last 4 characters");
            assertThat(browser.findAll(By.cssSelector("table.listing tbody tr"))).hasSize(3);
            assertThat(browser.driver().getPageSource()).doesNotContain(voucher).doesNotContain(changePin);
            look(browser, prefix + "7-redemptions");

            browser.find(By.cssSelector("a[href$='/redemptions/" + partial.get("id").stringValue() + "']")).click();
            browser.awaitText("Operation history").awaitText("Change voucher");
            assertThat(browser.text()).contains("************" + changePin.substring(12))
                    .contains("redemption.confirmed");
            assertThat(browser.driver().getPageSource()).doesNotContain(voucher).doesNotContain(changePin);
            look(browser, prefix + "8-redemption");

            browser.get(base() + "/dashboard/test/customers/bills/bill_0000000000000000deadbeef")
                    .awaitText("Bill not found");
            look(browser, prefix + "9-bill-not-found");
        }
    }

    private static JsonNode created(Api.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json();
    }

    /** axe-core on the page (no serious or critical finding), then its screenshot. */
    private static void look(Browser browser, String name) {
        Axe.noSeriousFindings(browser);
        browser.screenshot(name);
    }

}
