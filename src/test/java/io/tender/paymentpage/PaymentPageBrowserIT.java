package io.tender.paymentpage;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Browser;
import io.tender.support.Browser.Window;
import io.tender.support.Merchants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.Select;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A payment page in a real browser (headless Debian chromium) against the real service: the payer opens
 * {@code page_url}, chooses an amount, fills the page's form, continues to the checkout and pays by card, and the
 * merchant finds the transaction. Screenshots of every state go to {@code target/screenshots/<test>/}.
 */
class PaymentPageBrowserIT extends ApiIntegrationTest {

    private Merchants.Merchant merchant;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
    }

    private JsonNode page(String members) {
        var response = merchant.test().post("/collect/payment_pages", "{" + members + "}").send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json();
    }

    private static final String DONATIONS = """
            "title": "Donations for the park", "description": "Every rand buys gloves, bags and seedlings.",
            "currency": "ZAR", "amount_options": {"min": 1000, "max": 500000, "presets": [5000, 10000, 25000]},
            "custom_fields": [{"key": "team", "label": "Team", "type": "dropdown", "options": ["North", "South"],
              "required": true}, {"key": "dedication", "label": "Dedication", "type": "text"}]""";

    @Test
    void aPayerChoosesAPresetFillsTheFormAndPaysByCard() {
        JsonNode page = page(DONATIONS);
        try (Browser browser = Browser.open("payment-page", Window.PHONE)) {
            browser.get(page.get("page_url").stringValue()).awaitText("Continue to payment");
            assertThat(browser.text()).contains(merchant.name(), "Donations for the park", "ZAR 50.00", "ZAR 100.00",
                    "ZAR 250.00", "Other amount", "Full name", "Email", "Phone", "Team", "Dedication (optional)");
            browser.screenshot("1-form");
            browser.find(By.xpath("//label[@class='preset'][normalize-space(.)='ZAR 100.00']")).click();
            browser.type("Full name", "Thandi Nkosi").type("Email", "thandi@example.com").type("Phone", "082 555 0101");
            browser.select("Team", "South");
            browser.type("Dedication (optional)", "For the oak trees");
            browser.screenshot("2-filled");
            browser.click("Continue to payment").awaitText("Pay ZAR 100.00");
            assertThat(browser.url()).contains("/checkout/ckt_");
            assertThat(browser.text()).contains("Donations for the park", "Back to Donations for the park")
                    .doesNotContain("Cancel payment");
            browser.screenshot("3-checkout");
            browser.type("Card number", "4242424242424242").type("Expiry date", "12/34").type("Security code", "123");
            browser.click("Pay ZAR 100.00").awaitText("Payment successful");
            assertThat(browser.text()).contains("ZAR 100.00 paid to " + merchant.name(), "Back to Donations for the park");
            browser.screenshot("4-paid");
            browser.click("Back to Donations for the park").awaitText("Continue to payment");
            assertThat(browser.url()).isEqualTo(page.get("page_url").stringValue());
        }
        var listed = merchant.test().get("/collect/payment_pages/" + page.get("id").stringValue() + "/transactions").send();
        JsonNode transaction = listed.json().get("data").get(0);
        assertThat(listed.json().get("data")).hasSize(1);
        assertThat(transaction.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(transaction.get("amount").longValue()).isEqualTo(10000);
        assertThat(transaction.get("customer").get("name").stringValue()).isEqualTo("Thandi Nkosi");
        assertThat(transaction.get("custom_fields")).isEqualTo(tools.jackson.databind.json.JsonMapper.builder().build()
                .readTree("{\"team\":\"South\",\"dedication\":\"For the oak trees\"}"));
    }

    @Test
    void aMistakeIsShownNextToItsFieldWithoutJavaScript() {
        JsonNode page = page(DONATIONS + ", \"requires_delivery_details\": true");
        try (Browser browser = Browser.withoutJavaScript("payment-page-mistakes", Window.DESKTOP)) {
            browser.get(page.get("page_url").stringValue()).awaitText("Continue to payment");
            browser.find(By.xpath("//label[@class='preset'][normalize-space(.)='Other amount']")).click();
            browser.type("Enter another amount (ZAR)", "5.00").type("Email", "not an email");
            browser.type("Street address", "12 Long Street").type("City", "Cape Town");
            browser.click("Continue to payment").awaitText("Check the details below");
            assertThat(browser.find(By.id("amount-error")).getText())
                    .contains("Enter an amount from ZAR 10.00 to ZAR 5000.00.");
            assertThat(browser.find(By.id("name-error")).getText()).contains("Enter your full name.");
            assertThat(browser.find(By.id("email-error")).getText()).contains("Enter an email address");
            assertThat(browser.labelled("Email").getDomAttribute("aria-invalid")).isEqualTo("true");
            assertThat(browser.labelled("Street address").getDomProperty("value")).isEqualTo("12 Long Street");
            browser.screenshot("1-mistakes");
        }
        var payments = merchant.test().get("/collect/payments").send();
        assertThat(payments.json().get("data")).as("nothing was opened").isEmpty();
    }

    @Test
    void aClosedPageSaysSoAndOffersNoForm() {
        JsonNode page = page(DONATIONS + ", \"return_url\": \"https://park.example/\"");
        var stopped = merchant.test().patch("/collect/payment_pages/" + page.get("id").stringValue() + "/inactive", null)
                .send();
        assertThat(stopped.status()).isEqualTo(200);
        try (Browser browser = Browser.open("payment-page-closed", Window.PHONE)) {
            browser.get(page.get("page_url").stringValue()).awaitText("This page is closed");
            assertThat(browser.text()).contains("Donations for the park", "Back to " + merchant.name())
                    .doesNotContain("Continue to payment");
            assertThat(browser.findAll(By.tagName("form"))).isEmpty();
            browser.screenshot("1-closed");
        }
    }
}
