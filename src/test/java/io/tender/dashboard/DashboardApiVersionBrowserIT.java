package io.tender.dashboard;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Browser;
import io.tender.support.Browser.Window;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Developers → API version in Chromium, at phone and desktop width (decisions §15): an owner pinned to 2026-03-13
 * opens the tab, reads what upgrading changes, upgrades after confirming the password, and rolls back. axe-core on
 * every page; screenshots under {@code target/screenshots/dashboard/{phone,desktop}-version-*.png}.
 */
class DashboardApiVersionBrowserIT extends ApiIntegrationTest {

    private static final String PASSWORD = "a long and memorable passphrase";

    @ParameterizedTest
    @EnumSource(Window.class)
    void anOwnerReadsWhatUpgradingChangesUpgradesAfterThePasswordAndRollsBack(Window window) {
        Merchant merchant = merchants.create();
        assertThat(merchants.admin().patch("/admin/merchants/" + merchant.name(), "{\"api_version\":\"2026-03-13\"}")
                .send().status()).isEqualTo(200);
        String email = "version-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        String link = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"" + email + "\",\"role\":\"owner\"}").send().json().get("sign_in_url").stringValue();
        String prefix = window.name().toLowerCase() + "-version-";

        try (Browser browser = Browser.open("dashboard", window)) {
            browser.get(link).awaitText("Choose your password");
            browser.type("New password", PASSWORD).type("The same password again", PASSWORD)
                    .click("Set password and sign in").awaitUrl(base() + "/dashboard/test");

            browser.click("Developers").awaitText("Keys in use");
            browser.click("API version").awaitUrl(base() + "/dashboard/test/developers/api-version")
                    .awaitText("Your API version");
            assertThat(browser.text()).contains("What upgrading to 2026-06-01 changes")
                    .contains("pay_by_bank replaces instant_eft")
                    .contains("The error code payment_not_found");
            checked(browser, prefix + "1-pinned");

            browser.click("Upgrade to 2026-06-01").awaitText("Confirm it is you");
            checked(browser, prefix + "2-password");
            browser.type("Password", PASSWORD).click("Confirm").awaitText("Upgraded.");
            assertThat(merchant.test().get("/collect/payments?limit=1").send().header("Tender-Version"))
                    .isEqualTo("2026-06-01");
            checked(browser, prefix + "3-upgraded");

            browser.click("Roll back to 2026-03-13").awaitText("Rolled back.");
            assertThat(merchant.test().get("/collect/payments?limit=1").send().header("Tender-Version"))
                    .isEqualTo("2026-03-13");
            checked(browser, prefix + "4-rolled-back");
        }
    }

    /** axe-core finds nothing serious or critical on the page; then its screenshot. */
    private static void checked(Browser browser, String name) {
        Axe.noSeriousFindings(browser);
        browser.screenshot(name);
    }
}
