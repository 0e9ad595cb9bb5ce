package io.tender.paymentrequest;

import io.tender.checkout.Checkout;
import io.tender.payment.SessionClock;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Browser;
import io.tender.support.Browser.Window;
import io.tender.support.Merchants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A payment request's link in a real browser (headless chromium), as its customer opens it: the hosted checkout with
 * the request's description and no Cancel button, paid by card, then the page that says it is paid, also when the
 * link is opened again later; and the pages of a cancelled, an expired and a failed request. Screenshots under
 * {@code target/screenshots/payment-request*}.
 */
class PaymentRequestBrowserIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;

    @Autowired
    private ApplicationContext context;

    private Merchants.Merchant merchant;
    private Requests requests;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        requests = new Requests(merchant.test(), checkout);
    }

    private static String url(JsonNode request) {
        return request.get("link").get("url").stringValue();
    }

    @Test
    void aCustomerPaysARequestByCardAndTheLinkThenSaysItIsPaid() {
        JsonNode request = requests.create("\"amount\":15000,\"currency\":\"ZAR\",\"description\":\"Invoice 1001 – March\"");
        try (Browser browser = Browser.open("payment-request", Window.PHONE)) {
            browser.get(url(request)).awaitText("Pay ZAR 150.00");
            assertThat(browser.text()).contains(merchant.name(), "Invoice 1001 – March", "ZAR 150.00", "Card")
                    .doesNotContain("Cancel payment");
            browser.screenshot("1-link-opened");
            browser.type("Card number", "4242424242424242").type("Expiry date", "12/34").type("Security code", "123");
            browser.click("Pay ZAR 150.00").awaitText("This payment request has been paid");
            assertThat(browser.text()).contains("ZAR 150.00 paid to " + merchant.name() + " with VISA •••• 4242");
            browser.screenshot("2-paid");
        }
        JsonNode paid = requests.get(request);
        assertThat(paid.get("status").stringValue()).isEqualTo("paid");
        try (Browser later = Browser.open("payment-request", Window.DESKTOP)) {
            later.get(url(request)).awaitText("This payment request has been paid");
            assertThat(later.text()).doesNotContain("Pay ZAR 150.00");
            assertThat(later.findAll(org.openqa.selenium.By.cssSelector("input[name=card_number]"))).isEmpty();
            later.screenshot("3-reopened-later");
        }
    }

    @Test
    void aCancelledAnExpiredAndAFailedRequestEachSaySoOnTheirLink() {
        JsonNode cancelled = requests.create("\"amount\":2500,\"currency\":\"ZAR\",\"description\":\"Dinner\"");
        Requests.expect(200, requests.delete(cancelled));
        JsonNode expired = requests.create("\"amount\":2500,\"currency\":\"ZAR\",\"description\":\"Tickets\"");
        SessionClock.expire(context, expired.get("payment_session_id").stringValue());
        JsonNode failed = requests.push(2500, "+27821110002");
        assertThat(requests.get(failed).get("status").stringValue()).isEqualTo("failed");
        try (Browser browser = Browser.open("payment-request-ended", Window.PHONE)) {
            browser.get(url(cancelled)).awaitText("This payment request was cancelled by " + merchant.name());
            assertThat(browser.text()).contains("Dinner", "No money was taken").doesNotContain("Pay ZAR");
            browser.screenshot("1-cancelled");
            browser.get(url(expired)).awaitText("This payment request has expired");
            assertThat(browser.text()).contains("Tickets", "Ask " + merchant.name() + " for a new payment request")
                    .doesNotContain("Pay ZAR");
            browser.screenshot("2-expired");
            browser.get(url(failed)).awaitText("This payment request failed");
            assertThat(browser.text()).contains("The payment was not approved", "No money was taken")
                    .doesNotContain("cancelled by").doesNotContain("Pay ZAR");
            browser.screenshot("3-failed");
        }
    }
}
