package io.tender.checkout;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Browser;
import io.tender.support.Browser.Window;
import io.tender.support.Merchants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first payment of a series in a real browser (headless Debian chromium): the checkout states the terms in plain
 * words beside the pay button, the customer agrees by paying, and the mandate (and subscription) that the success
 * creates keeps their acceptance: when, from which address, in which browser. Screenshots under
 * {@code target/screenshots/series-*}.
 */
class SeriesCheckoutBrowserIT extends ApiIntegrationTest {

    private static final DateTimeFormatter WORDS = DateTimeFormatter.ofPattern("d MMMM uuuu", Locale.ENGLISH);

    private Merchants.Merchant merchant;
    private Api api;
    private String customer;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        api = merchant.test();
        var created = api.post("/billing/customers", "{\"external_reference\":\"browser-1\",\"name\":\"Thandi\","
                + "\"email\":\"thandi@example.com\"}").send();
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        customer = created.json().get("id").stringValue();
    }

    private JsonNode session(String options) {
        var response = api.post("/collect/payment_sessions", "{\"type\":\"first_in_series\",\"amount\":9900,"
                + "\"currency\":\"ZAR\",\"customer\":\"" + customer + "\",\"options\":{" + options + "}}").send();
        assertThat(response.status()).as(response.text()).isEqualTo(201);
        return response.json();
    }

    private JsonNode get(String path) {
        var response = api.get(path).send();
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        return response.json();
    }

    @Test
    void aMonthlySubscriptionsTermsAreStatedAndItsFirstPaymentStartsIt() {
        JsonNode session = session("\"subscription_options\":{\"interval\":\"monthly\"}");
        LocalDate firstCharge = LocalDate.now(ZoneId.of("Africa/Johannesburg")).plusMonths(1);

        // The desktop shows the terms; the phone then pays.
        for (Window window : java.util.List.of(Window.DESKTOP, Window.PHONE)) {
            try (Browser browser = Browser.open("series-subscription-" + window.name().toLowerCase(Locale.ROOT),
                    window)) {
                browser.get(session.get("session_url").stringValue()).awaitText("Pay ZAR 99.00");
                assertThat(browser.text()).contains("Future payments", "You allow " + merchant.name()
                        + " to charge this card ZAR 99.00 every month, from " + WORDS.format(firstCharge) + ".",
                        "By paying, you agree to these terms");
                assertThat(browser.text()).doesNotContain("Pay by bank", "Capitec Pay");
                browser.screenshot("1-terms");
                if (window == Window.DESKTOP) {
                    continue;
                }
                browser.type("Card number", "4242424242424242").type("Expiry date", "12/34")
                        .type("Security code", "123");
                browser.screenshot("2-card-filled");
                browser.click("Pay ZAR 99.00").awaitText("Payment successful");
                assertThat(browser.text()).contains("Your card is saved for the future payments you agreed to.");
                browser.screenshot("3-paid");
            }
        }

        JsonNode paid = get("/collect/payment_sessions/" + session.get("id").stringValue());
        assertThat(paid.get("status").stringValue()).isEqualTo("completed");
        JsonNode subscription = get("/collect/subscriptions/" + paid.get("subscription_id").stringValue());
        assertThat(subscription.get("status").stringValue()).isEqualTo("active");
        assertThat(subscription.get("current_period").get("end").stringValue()).isEqualTo(firstCharge.toString());
        JsonNode mandate = get("/collect/mandates/" + subscription.get("mandate_id").stringValue());
        JsonNode acceptance = mandate.get("acceptance");
        assertThat(acceptance.get("ip_address").stringValue()).isIn("127.0.0.1", "0:0:0:0:0:0:0:1");
        assertThat(acceptance.get("user_agent").stringValue()).contains("Chrome");
        assertThat(acceptance.get("accepted_at").stringValue()).isNotBlank();
        assertThat(mandate.get("payment_method_details").get("card").get("last4").stringValue()).isEqualTo("4242");
    }

    @Test
    void aMandatesTermsAreStatedWithItsLimit() {
        JsonNode session = session("\"mandate_options\":{\"type\":\"scheduled\",\"amount\":{\"type\":\"variable\","
                + "\"min\":1000,\"max\":20000},\"day_of_month\":1,\"start_date\":\"2031-12-01\","
                + "\"period_limit\":{\"period\":\"month\",\"max_count\":2}}");

        try (Browser browser = Browser.open("series-mandate-phone", Window.PHONE)) {
            browser.get(session.get("session_url").stringValue()).awaitText("Pay ZAR 99.00");
            assertThat(browser.text()).contains("You allow " + merchant.name() + " to charge this card from ZAR 10.00 "
                    + "to ZAR 200.00 every month on the 1st, from 1 December 2031. At most 2 charges per calendar "
                    + "month.");
            browser.screenshot("1-terms");
        }
    }
}
