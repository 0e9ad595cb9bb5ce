package io.tender.checkout;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Browser;
import io.tender.support.Browser.Window;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hosted checkout in a real browser (headless Debian chromium), against the real service over HTTP: every
 * method and page state, each saved as a screenshot under {@code target/screenshots/<test>/}.
 */
class CheckoutBrowserIT extends ApiIntegrationTest {

    private String session(String json) {
        var response = anonymous().post("/test-only/checkout-sessions", json).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return base() + response.json().get("session_url").stringValue();
    }

    @Test
    void aCustomerPaysByCardOnAPhone() {
        String url = session("""
                {"amount": 15000, "visible_methods": ["card", "pay_by_bank", "capitec_pay", "mobile_money"]}""");
        try (Browser browser = Browser.open("card-phone", Window.PHONE)) {
            browser.get(url).awaitText("Pay ZAR 150.00");
            assertThat(browser.text()).contains("Acme Coffee", "ZAR 150.00");
            browser.screenshot("1-card-form");
            browser.type("Card number", "4242424242424242").type("Expiry date", "12/34").type("Security code", "123");
            browser.screenshot("2-card-filled");
            browser.click("Pay ZAR 150.00").awaitText("Payment successful");
            assertThat(browser.text()).contains("VISA •••• 4242");
            browser.screenshot("3-result");
        }
    }

    @Test
    void theCardFormOnADesktop() {
        String url = session("""
                {"amount": 15000}""");
        try (Browser browser = Browser.open("card-desktop", Window.DESKTOP)) {
            browser.get(url).awaitText("Pay ZAR 150.00");
            browser.screenshot("1-card-form");
            browser.type("Card number", "4242424242424241").type("Expiry date", "01/20").type("Security code", "12");
            browser.click("Pay ZAR 150.00");
            browser.find(By.id("card_number-error"));
            browser.screenshot("2-checked-in-the-browser");
        }
    }
}
