package io.tender.dashboard;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Browser;
import io.tender.support.Browser.Window;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.By;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Developers → API keys as a person uses it, in Debian's chromium: an owner signs in, creates a test key, reads its
 * secret off the page (the Copy button there works under the CSP) and calls the API with it, rolls it with an hour's
 * overlap, revokes the new key through the confirmation (the API then answers 401), and creates a live key after
 * confirming the password. axe-core on every page; screenshots at phone and desktop width under
 * {@code target/screenshots/dashboard/{phone,desktop}-keys-*.png}.
 */
class DashboardApiKeysBrowserIT extends ApiIntegrationTest {

    private static final String PASSWORD = "a long and memorable passphrase";

    @ParameterizedTest
    @EnumSource(Window.class)
    void anOwnerCreatesUsesRollsAndRevokesAKeyAndCreatesALiveOneAfterThePassword(Window window) {
        Merchant merchant = merchants.create();
        String email = "dev-lead-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        String link = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"" + email + "\",\"role\":\"owner\"}").send().json().get("sign_in_url").stringValue();
        String prefix = window.name().toLowerCase() + "-keys-";

        try (Browser browser = Browser.open("dashboard", window)) {
            browser.get(link).awaitText("Choose your password");
            browser.type("New password", PASSWORD).type("The same password again", PASSWORD)
                    .click("Set password and sign in").awaitUrl(base() + "/dashboard/test");

            browser.click("Developers").awaitUrl(base() + "/dashboard/test/developers/keys").awaitText("Keys in use");
            assertThat(browser.text()).contains("sk_test_…").contains("pk_test_…").contains("Create a key");
            checked(browser, prefix + "1-list");

            browser.click("Create key").awaitText("Copy it now.");
            String secret = browser.find(By.id("new-key")).getDomProperty("value");
            assertThat(secret).matches("sk_test_[0-9a-f]{40}");
            browser.click("Copy key").await(d -> !d.findElement(By.cssSelector(".copied")).getText().isBlank(),
                    "the copy button's answer");
            checked(browser, prefix + "2-secret-shown-once");
            assertThat(new Api(base(), secret).get("/collect/payments").send().status()).isEqualTo(200);

            String display = "sk_test_…" + secret.substring(secret.length() - 4);
            browser.click("I have copied it, back to API keys").awaitText(display);
            assertThat(browser.driver().getPageSource()).doesNotContain(secret);
            String id = jdbc.sql("select id from api_keys where merchant_id = ? and display = ?")
                    .params(merchant.id(), display).query(String.class).single();
            checked(browser, prefix + "3-list-with-new-key");

            browser.find(By.cssSelector("a[href$='/" + id + "/roll']")).click();
            browser.awaitText("The old key keeps working for");
            browser.find(By.cssSelector("input[name='overlap'][value='1h']")).click();
            checked(browser, prefix + "4-roll");
            browser.click("Roll key").awaitText("Copy it now.").awaitText("works until");
            String rolled = browser.find(By.id("new-key")).getDomProperty("value");
            checked(browser, prefix + "5-rolled");
            assertThat(new Api(base(), secret).get("/collect/payments").send().status()).as("old, during the overlap")
                    .isEqualTo(200);
            assertThat(new Api(base(), rolled).get("/collect/payments").send().status()).isEqualTo(200);

            browser.click("I have copied it, back to API keys").awaitText("Rolled, works until");
            checked(browser, prefix + "6-list-rolled");

            String rolledDisplay = "sk_test_…" + rolled.substring(rolled.length() - 4);
            String rolledId = jdbc.sql("select id from api_keys where merchant_id = ? and display = ?")
                    .params(merchant.id(), rolledDisplay).query(String.class).single();
            browser.find(By.cssSelector("a[href$='/" + rolledId + "/revoke']")).click();
            browser.awaitText("This cannot be undone");
            checked(browser, prefix + "7-revoke-confirm");
            browser.click("Revoke key").awaitText("The key is revoked.").awaitText("Revoked and expired");
            checked(browser, prefix + "8-revoked");
            assertThat(new Api(base(), rolled).get("/collect/payments").send().status()).isEqualTo(401);

            browser.click("Live").awaitUrl(base() + "/dashboard/live");
            browser.get(base() + "/dashboard/live/developers/keys").awaitText("sk_live_…");
            browser.click("Create key").awaitText("Confirm it is you");
            checked(browser, prefix + "9-live-password");
            browser.type("Password", PASSWORD).click("Confirm").awaitText("Copy it now.");
            assertThat(browser.find(By.id("new-key")).getDomProperty("value")).startsWith("sk_live_");
            checked(browser, prefix + "10-live-secret");
        }
    }

    /** axe-core finds nothing serious or critical on the page; then its screenshot. */
    private static void checked(Browser browser, String name) {
        Axe.noSeriousFindings(browser);
        browser.screenshot(name);
    }
}
