package io.tender.checkout;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.time.YearMonth;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A customer sent back to a {@code return_url} on Tender itself (what a developer trying the checkout gives, and what
 * the README's quick start did) lands on a page that says the outcome, not on a 404 that looks like a failed payment;
 * and that page shows back only a well-formed session id and a known outcome.
 */
class ReturnLandingIT extends ApiIntegrationTest {

    private static final Pattern RETURN_LINK = Pattern.compile("href=\"(http://localhost:\\d+/\\?[^\"]+)\"");

    @Autowired
    private Checkout checkout;

    @Test
    void aPaidCustomerSentBackToTheServiceItselfReadsThatThePaymentSucceeded() {
        Api merchant = merchants.create().test();
        var created = merchant.post("/collect/payment_sessions", "{\"amount\":15000,\"currency\":\"ZAR\","
                + "\"options\":{\"checkout_options\":{\"return_url\":\"" + base() + "/\"}}}").send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode session = created.json();
        String checkoutPath = URI.create(session.get("session_url").stringValue()).getPath();
        var attempt = checkout.payByCard(checkoutPath.substring(checkoutPath.lastIndexOf('/') + 1), "4242424242424242",
                12, YearMonth.now().getYear() + 2, "123");
        assertThat(attempt.status()).isEqualTo("succeeded");

        var result = anonymous().get(checkoutPath).send();
        Matcher link = RETURN_LINK.matcher(result.text().replace("&amp;", "&"));
        assertThat(link.find()).as(result.text()).isTrue();
        var landed = anonymous().get(link.group(1).substring(base().length())).send();

        assertThat(landed.status()).isEqualTo(200);
        assertThat(landed.contentType()).startsWith("text/html");
        assertThat(landed.text()).contains("Back from the checkout", "The payment succeeded.",
                session.get("id").stringValue(), "confirms it with");
        assertThat(landed.header("Content-Security-Policy")).contains("frame-ancestors 'none'");
    }

    @Test
    void theRootPageWithoutAnOutcomeSaysTheServiceRunsAndAForgedOneIsNotShownBack() {
        var plain = anonymous().get("/").send();
        assertThat(plain.status()).isEqualTo(200);
        assertThat(plain.text()).contains("Tender is running", "href=\"/docs\"");

        var forged = anonymous().get("/?payment_session=%3Cscript%3Ealert(1)%3C/script%3E&outcome=paid").send();
        assertThat(forged.status()).isEqualTo(200);
        assertThat(forged.text()).contains("Tender is running").doesNotContain("<script>alert", "succeeded");
        var unknownOutcome = anonymous().get("/?payment_session=ps_0123456789abcdef01234567&outcome=refunded%21").send();
        assertThat(unknownOutcome.text()).contains("Tender is running").doesNotContain("refunded!");
    }
}
