package io.tender.dashboard;

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
 * Developers › Webhooks and Events as a developer uses them, in Debian's chromium: signs in, sees a refused URL
 * explained, adds an endpoint (its secret shown once), sends a test event that a receiver on loopback gets signed,
 * opens the endpoint and resends a delivered event, then reads the event log and one event's JSON. Every page passes
 * axe-core (no serious or critical finding) and is saved at phone and desktop width as
 * {@code target/screenshots/dashboard/{phone,desktop}-hooks-<n>-<name>.png}.
 */
class DashboardWebhooksBrowserIT extends ApiIntegrationTest {

    private static final String PASSWORD = "a long and memorable passphrase";

    @ParameterizedTest
    @EnumSource(Window.class)
    void aDeveloperAddsAnEndpointSendsATestEventResendsItAndReadsTheEventLog(Window window) {
        Merchant merchant = merchants.create();
        String email = "dev-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        var created = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"" + email + "\",\"role\":\"developer\"}").send();
        String link = created.json().get("sign_in_url").stringValue();
        String prefix = window.name().toLowerCase() + "-hooks-";

        try (Browser browser = Browser.open("dashboard", window);
             DashboardWebhooksIT.Receiver receiver = DashboardWebhooksIT.Receiver.start()) {
            receiver.answer(200, "{\"received\":true}");
            browser.get(link).awaitText("Choose your password");
            browser.type("New password", PASSWORD).type("The same password again", PASSWORD)
                    .click("Set password and sign in").awaitUrl(base() + "/dashboard/test");

            browser.get(base() + "/dashboard/test/developers/webhooks").awaitText("No endpoints yet");
            checked(browser, prefix + "1-webhooks-empty");

            browser.type("URL", "ftp://127.0.0.1/hooks").click("Add endpoint")
                    .awaitText("must be an absolute http or https URL");
            checked(browser, prefix + "2-add-refused");

            browser.type("URL", receiver.url("/tender/webhooks")).type("Description (optional)", "Order service")
                    .click("Add endpoint").awaitText("Endpoint added");
            String secret = browser.labelled("Signing secret").getDomProperty("value");
            assertThat(secret).startsWith("whsec_");
            receiver.secrets(secret);
            checked(browser, prefix + "3-secret-once");

            merchant.test().post("/collect/payment_sessions", "{\"amount\":12500,\"currency\":\"ZAR\"}").send();
            merchant.test().post("/collect/payment_sessions", "{\"amount\":4999,\"currency\":\"ZAR\"}").send();
            receiver.await(r -> r.size() == 2, "two payment_session.created events");

            browser.click("I have stored it: open the endpoint").awaitText("Send a test event");
            assertThat(browser.text()).doesNotContain(secret);
            browser.click("Send test event").awaitText("Test event sent.");
            var test = receiver.await(r -> r.size() == 3, "the test event").get(2);
            assertThat(test.signatureValid()).isTrue();
            assertThat(test.json().get("type").stringValue()).isEqualTo("webhook_endpoint.test");
            awaitRows(browser, 3, "the test event's attempt listed");
            assertThat(browser.find(By.cssSelector("table.attempts tbody tr td[data-label='Event']")).getText())
                    .contains("webhook_endpoint.test");
            checked(browser, prefix + "4-endpoint-deliveries");

            browser.find(By.cssSelector("form.inline-form button")).click();
            browser.awaitText("Resend queued.");
            receiver.await(r -> r.size() == 4, "the resent event");
            awaitRows(browser, 4, "the resend's attempt listed");
            assertThat(browser.find(By.cssSelector("table.attempts tbody tr td[data-label='Attempt']")).getText())
                    .isEqualTo("2");
            assertThat(browser.find(By.cssSelector("table.attempts tbody tr td[data-label='Event']")).getText())
                    .as("the test event resent").contains("webhook_endpoint.test");
            checked(browser, prefix + "5-resent");

            browser.click("Rotate secret…").awaitText("Rotate the signing secret?");
            checked(browser, prefix + "6-rotate-confirm");
            browser.click("Cancel").awaitText("Deliveries");

            browser.click("Webhooks").awaitText("Add an endpoint");
            assertThat(browser.text()).contains(receiver.url("/tender/webhooks")).contains("Order service")
                    .contains("Enabled").contains("All events").doesNotContain(secret);
            checked(browser, prefix + "7-webhooks");

            browser.click("Events").awaitText("Every change to your test data");
            assertThat(browser.text()).contains("webhook_endpoint.test").contains("payment_session.created");
            checked(browser, prefix + "8-events");

            browser.find(By.cssSelector("table.events tbody tr a[href*='/developers/events/evt_']")).click();
            browser.awaitText("Webhook deliveries").awaitText("JSON");
            assertThat(browser.find(By.cssSelector("pre.json")).getText()).contains("\"webhook_endpoint_id\"");
            checked(browser, prefix + "9-event");
        }
    }

    /** Reloads the endpoint's page until it lists {@code rows} attempts (deliveries are made in the background). */
    private static void awaitRows(Browser browser, int rows, String what) {
        browser.await(d -> {
            if (browser.findAll(By.cssSelector("table.attempts tbody tr")).size() == rows) {
                return true;
            }
            d.navigate().refresh();
            return null;
        }, what);
    }

    private static void checked(Browser browser, String name) {
        Axe.noSeriousFindings(browser);
        browser.screenshot(name);
    }
}
