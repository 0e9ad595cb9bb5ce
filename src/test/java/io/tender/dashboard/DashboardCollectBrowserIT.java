package io.tender.dashboard;

import io.tender.checkout.Checkout;
import io.tender.support.Browser;
import io.tender.support.Browser.Window;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.util.UUID;

import static io.tender.dashboard.CollectFixtures.expect;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Collect pages as a person uses them, in Debian's chromium at phone and desktop width: make a payment link and
 * see its QR code and copy it, look at payment pages and sessions, open a subscription and cancel it through its
 * confirmation, look at its mandate. axe-core runs on every page (no serious or critical finding) and each is saved
 * under {@code target/screenshots/dashboard/{phone,desktop}-collect-<n>-<name>.png}.
 */
class DashboardCollectBrowserIT extends ApiIntegrationTest {

    private static final String PASSWORD = "a long and memorable passphrase";

    @Autowired
    private Checkout checkout;

    @ParameterizedTest
    @EnumSource(Window.class)
    void anOwnerMakesALinkSeesItsQrCodeOpensASessionAndCancelsASubscription(Window window) {
        Merchant merchant = merchants.create();
        CollectFixtures test = new CollectFixtures(merchant.test(), checkout);
        JsonNode session = test.session("\"amount\":12500,\"currency\":\"ZAR\",\"external_reference\":\"order-1042\","
                + "\"options\":{\"checkout_options\":{\"return_url\":\"https://shop.example/thanks\"}}");
        test.pay(session.get("checkout_session_id").stringValue(), "4242424242424242");
        test.session("\"amount\":4000,\"currency\":\"ZAR\"");
        JsonNode subscription = test.subscription(test.customer("grace.hopper@example.com"));
        expect(201, merchant.test().post("/collect/payment_pages", "{\"title\":\"Car wash\",\"currency\":\"ZAR\","
                + "\"amount_options\":{\"min\":5000,\"max\":50000},\"requires_customer_details\":false}").send());
        String email = "owner-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        String link = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"" + email + "\",\"role\":\"owner\"}").send().json().get("sign_in_url").stringValue();
        String prefix = window.name().toLowerCase() + "-collect-";

        try (Browser browser = Browser.open("dashboard", window)) {
            browser.get(link).awaitText("Choose your password");
            browser.type("New password", PASSWORD).type("The same password again", PASSWORD)
                    .click("Set password and sign in").awaitUrl(base() + "/dashboard/test");

            browser.click("Links").awaitText("No payment requests");
            shot(browser, prefix + "1-links-empty");
            browser.click("Create a payment link").awaitText("A link your customer opens to pay once");
            shot(browser, prefix + "2-link-new");
            browser.type("Amount", "15O.00").type("Description (optional)", "Invoice 12: garden service")
                    .type("Customer email (optional)", "grace.hopper@example.com").click("Create the link")
                    .awaitText("Enter an amount such as 10.50 (in ZAR).");
            shot(browser, prefix + "3-link-error");
            browser.type("Amount", "150.00").click("Create the link").awaitText("Payment link made.");
            browser.await(d -> (Boolean) ((JavascriptExecutor) d).executeScript(
                    "const i = document.querySelector('img.qr'); return i.complete && i.naturalWidth > 0;"),
                    "the QR code to load");
            WebElement copy = browser.find(By.cssSelector("button[data-copy='link-url']"));
            assertThat(copy.isDisplayed()).as("the copy button shows with JavaScript").isTrue();
            copy.click();
            browser.await(d -> !d.findElement(By.id("link-url-status")).getText().isEmpty(), "the copy's outcome");
            assertThat(browser.find(By.id("link-url")).getDomProperty("value")).contains("/checkout/ckt_");
            shot(browser, prefix + "4-link");
            browser.click("← Payment requests").awaitText("Invoice 12: garden service");
            shot(browser, prefix + "5-links");

            browser.click("Payment pages").awaitText("Car wash");
            shot(browser, prefix + "6-pages");
            browser.click("Car wash").awaitText("Nobody has paid through this page yet.");
            assertThat(browser.text()).contains("ZAR 50.00 to ZAR 500.00, the payer chooses");
            shot(browser, prefix + "7-page");

            browser.click("Payments").awaitText("Results");
            browser.click("Payment sessions").awaitText("ZAR 125.00");
            shot(browser, prefix + "8-sessions");
            browser.click("ZAR 125.00").awaitText("order-1042");
            assertThat(browser.text()).contains("https://shop.example/thanks", "completed", "Visa ···· 4242");
            shot(browser, prefix + "9-session");

            browser.click("Subscriptions").awaitText("ZAR 99.00 every month");
            shot(browser, prefix + "10-subscriptions");
            browser.click("ZAR 99.00 every month").awaitText("Coming charges");
            assertThat(browser.text()).contains("grace.hopper@example.com", "Periods", "You allow " + merchant.name());
            shot(browser, prefix + "11-subscription");
            browser.click("Cancel the subscription…").awaitText("What happens when you cancel");
            shot(browser, prefix + "12-subscription-confirm");
            browser.click("Cancel the subscription").awaitText("The subscription is cancelled");
            assertThat(merchant.test().get("/collect/subscriptions/" + subscription.get("id").stringValue()).send()
                    .json().get("status").stringValue()).isEqualTo("cancelled");
            shot(browser, prefix + "13-subscription-cancelled");

            browser.click("Subscriptions").awaitText("Mandates");
            browser.click("Mandates").awaitText("scheduled");
            shot(browser, prefix + "14-mandates");
            browser.click("ZAR 99.00").awaitText("Agreed terms");
            shot(browser, prefix + "15-mandate");
        }
    }

    /** axe-core on the page (no serious or critical finding), then its screenshot. */
    private static void shot(Browser browser, String name) {
        Axe.noSeriousFindings(browser);
        browser.screenshot(name);
    }

}
