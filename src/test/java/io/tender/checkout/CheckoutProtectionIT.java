package io.tender.checkout;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.net.URI;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checkout's protection over plain HTTP (decisions §6, §9): its headers, CSRF tokens that go stale after each
 * attempt, posts from other sites refused, the per-session rate limit, no asset from another origin, and no card
 * number or security code in any log line even with DEBUG on for Spring's web layer and Thymeleaf.
 */
@ExtendWith(OutputCaptureExtension.class)
class CheckoutProtectionIT extends ApiIntegrationTest {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    private Merchants.Merchant merchant;

    @Autowired
    private LoggingSystem logging;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
    }

    @AfterEach
    void back() {
        logging.setLogLevel("org.springframework.web", null);
        logging.setLogLevel("org.thymeleaf", null);
    }

    private record Session(String path, String paymentSessionId) {
    }

    /** A ZAR 150.00 session with these {@code options} (the inside of the object), made with the secret test key. */
    private Session session(String options) {
        var response = merchant.test().post("/collect/payment_sessions",
                "{\"amount\": 15000, \"currency\": \"ZAR\", \"options\": {" + options + "}}").send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return new Session(URI.create(response.json().get("session_url").stringValue()).getPath(),
                response.json().get("id").stringValue());
    }

    private String paymentOutcome(Session session) {
        return merchant.test().get("/collect/payment_sessions/" + session.paymentSessionId()).send().json()
                .get("payment_outcome").stringValue();
    }

    private static String csrf(Api.Response page) {
        Matcher m = CSRF.matcher(page.text());
        assertThat(m.find()).as(page.text()).isTrue();
        return m.group(1);
    }

    private Api.Response postForm(String path, String form) {
        return anonymous().post(path, form).contentType("application/x-www-form-urlencoded").send();
    }

    private static String card(String token, String number) {
        return "_csrf=" + token + "&method=card&card_number=" + number + "&expiry=12%2F34&security_code=987";
    }

    @Test
    void aRedirectPageMayNotBeFramedCachedOrLeakItsAddress() {
        var session = session("");
        var page = anonymous().get(session.path()).send();

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.header("Cache-Control")).isEqualTo("no-store");
        assertThat(page.header("Referrer-Policy")).isEqualTo("no-referrer");
        assertThat(page.header("X-Frame-Options")).isEqualTo("DENY");
        assertThat(page.header("Content-Security-Policy"))
                .contains("default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'",
                        "form-action 'self'")
                .doesNotContain("unsafe-inline");
        assertThat(page.text()).contains("Pay ZAR 150.00", "<label for=\"card_number\">Card number</label>",
                "<label for=\"expiry\">Expiry date</label>", "<label for=\"security_code\">Security code</label>");
        // Every asset is this origin's own: no absolute URL in a src or href, and no inline script or style.
        assertThat(page.text()).doesNotContainPattern("(src|href)=\"(https?:)?//").doesNotContain("<style")
                .doesNotContainPattern("<script(?![^>]*\\ssrc=)").doesNotContain("style=\"").doesNotContain("sk_test");
        assertThat(anonymous().get("/checkout-assets/checkout.css").send().status()).isEqualTo(200);
        assertThat(anonymous().get("/checkout-assets/checkout-page.js").send().status()).isEqualTo(200);
        assertThat(anonymous().get("/checkout.js").send().status()).isEqualTo(200);
    }

    @Test
    void anEmbeddedPageMayBeFramedOnlyByItsReturnUrlsOrigin() {
        var session = session("""
                "checkout_options": {"presentation_mode": "embedded_inline", "return_url": "https://shop.example:8443/done"}""");
        var page = anonymous().get(session.path()).send();

        assertThat(page.header("Content-Security-Policy")).contains("frame-ancestors https://shop.example:8443")
                .doesNotContain("frame-ancestors 'none'");
        assertThat(page.header("X-Frame-Options")).isNull();
        assertThat(page.text()).contains("data-merchant-origin=\"https://shop.example:8443\"");
    }

    @Test
    void anUnknownCheckoutSessionIsAPlainNotFoundPage() {
        var page = anonymous().get("/checkout/ckt_0000000000000000deadbeef").send();
        assertThat(page.status()).isEqualTo(404);
        assertThat(page.text()).contains("This payment link is not valid");
        assertThat(page.header("Cache-Control")).isEqualTo("no-store");
        assertThat(anonymous().get("/checkout/ps_0000000000000000deadbeef").send().status()).isEqualTo(404);
    }

    @Test
    void aPostWithoutTheFormsTokenOrFromAnotherSiteStartsNothing() {
        var session = session("");
        String token = csrf(anonymous().get(session.path()).send());

        assertThat(postForm(session.path() + "/pay", card("", "4242424242424242")).status()).isEqualTo(403);
        assertThat(postForm(session.path() + "/pay", card("forged", "4242424242424242")).status()).isEqualTo(403);
        var crossSite = anonymous().post(session.path() + "/pay", card(token, "4242424242424242"))
                .contentType("application/x-www-form-urlencoded").header("Sec-Fetch-Site", "cross-site").send();
        assertThat(crossSite.status()).isEqualTo(403);
        assertThat(crossSite.text()).contains("This page is out of date");
        assertThat(paymentOutcome(session)).isEqualTo("not_started");

        var paid = postForm(session.path() + "/pay", card(token, "4242424242424242"));
        assertThat(paid.status()).isEqualTo(302);
        assertThat(paid.header("Location")).endsWith(session.path());
    }

    @Test
    void aPostFromAnotherOriginWithoutSecFetchSiteStartsNothingWhileTheCheckoutsOwnOriginPays() {
        // A browser that sends no Sec-Fetch-Site (older Safari) still sends Origin on a form post: another site's page
        // posting the form, even with a token it somehow had, is refused and changes nothing.
        var session = session("\"checkout_options\": {\"visible_payment_methods\": [\"card\"]}");
        String token = csrf(anonymous().get(session.path()).send());
        for (String origin : List.of("https://evil.example", "http://127.0.0.1:" + port, "http://localhost:" + port + ".evil.example")) {
            var crossSite = anonymous().post(session.path() + "/pay", card(token, "4242424242424242"))
                    .contentType("application/x-www-form-urlencoded").header("Origin", origin).send();
            assertThat(crossSite.status()).as(origin).isEqualTo(403);
            assertThat(crossSite.text()).contains("This page is out of date");
        }
        assertThat(paymentOutcome(session)).isEqualTo("not_started");
        assertThat(merchant.test().get("/collect/payments?payment_session=" + session.paymentSessionId()).send()
                .json().get("data")).isEmpty();

        // Origin: null (what a browser sends for the page's own form under Referrer-Policy: no-referrer) is left to
        // the token, and so is the checkout's own origin.
        var ownFormWithoutReferrer = anonymous().post(session.path() + "/pay", card(token, "4000000000000002"))
                .contentType("application/x-www-form-urlencoded").header("Origin", "null").send();
        assertThat(ownFormWithoutReferrer.status()).isEqualTo(302);
        assertThat(anonymous().get(session.path()).send().text()).contains("Your card was declined.");
        String next = csrf(anonymous().get(session.path()).send());
        var sameOrigin = anonymous().post(session.path() + "/pay", card(next, "4242424242424242"))
                .contentType("application/x-www-form-urlencoded").header("Origin", base()).send();
        assertThat(sameOrigin.status()).isEqualTo(302);
        assertThat(paymentOutcome(session)).isEqualTo("paid");
    }

    @Test
    void theSameFormPostedTwiceStartsOneAttempt() {
        var session = session("\"checkout_options\": {\"visible_payment_methods\": [\"card\"]}");
        String token = csrf(anonymous().get(session.path()).send());

        assertThat(postForm(session.path() + "/pay", card(token, "4000000000000002")).status()).isEqualTo(302);
        assertThat(postForm(session.path() + "/pay", card(token, "4000000000000002")).status()).isEqualTo(403);

        var page = anonymous().get(session.path()).send();
        assertThat(page.text()).contains("Your card was declined.");
        assertThat(csrf(page)).isNotEqualTo(token);
    }

    @Test
    void eightRacingPostsOfOneFormStartOneAttempt() throws Exception {
        var session = session("\"checkout_options\": {\"visible_payment_methods\": [\"card\"]}");
        String token = csrf(anonymous().get(session.path()).send());

        // A declined card ends its attempt at once, so a post that came later could start a second one if the form's
        // token were checked outside the session's lock.
        var start = new java.util.concurrent.CountDownLatch(1);
        var statuses = new java.util.concurrent.ConcurrentLinkedQueue<Integer>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(8)) {
            for (int i = 0; i < 8; i++) {
                pool.submit(() -> {
                    start.await();
                    statuses.add(postForm(session.path() + "/pay", card(token, "4000000000000002")).status());
                    return null;
                });
            }
            start.countDown();
        }

        assertThat(statuses).hasSize(8).allMatch(status -> status == 302 || status == 403);
        var payments = merchant.test().get("/collect/payments?payment_session=" + session.paymentSessionId())
                .send().json().get("data");
        assertThat(payments).as("attempts started by one form").hasSize(1);
        assertThat(anonymous().get(session.path()).send().text()).contains("Your card was declined.");
    }

    @Test
    void cardFieldsInTheUrlAreRefusedAndStartNothing() {
        var session = session("");
        String token = csrf(anonymous().get(session.path()).send());

        var refused = anonymous().post(session.path() + "/pay?card_number=4242424242424242&expiry=12%2F34"
                        + "&security_code=987", "_csrf=" + token + "&method=card")
                .contentType("application/x-www-form-urlencoded").send();

        assertThat(refused.status()).isEqualTo(400);
        // Ids and tokens on the page (random hex and base64) may hold "987" by chance: look at the rest.
        String shown = refused.text().replaceAll("[A-Za-z0-9_-]{20,}", "");
        assertThat(refused.text()).doesNotContain("4242424242424242");
        assertThat(shown).doesNotContain("987");
        assertThat(paymentOutcome(session)).isEqualTo("not_started");
        // the same form with its fields in the body pays
        assertThat(postForm(session.path() + "/pay", card(token, "4242424242424242")).status()).isEqualTo(302);
        assertThat(paymentOutcome(session)).isEqualTo("paid");
    }

    @Test
    void aSessionsFormPostsAreRateLimited() {
        var session = session("");
        String form = "_csrf=" + csrf(anonymous().get(session.path()).send()) + "&method=card&card_number=1";
        int limited = 0;
        Api.Response last = null;
        for (int i = 0; i < 12 && limited == 0; i++) {
            last = postForm(session.path() + "/pay", form);
            if (last.status() == 429) {
                limited = i + 1;
            } else {
                assertThat(last.status()).isEqualTo(422);
            }
        }
        assertThat(limited).as("the post that was limited").isEqualTo(11);
        assertThat(last.header("Retry-After")).matches("[1-9][0-9]*");
        assertThat(last.text()).contains("Too many attempts");
        // another session is not affected
        var other = session("");
        assertThat(postForm(other.path() + "/pay", "_csrf=" + csrf(anonymous().get(other.path()).send())
                + "&method=card&card_number=1").status()).isEqualTo(422);
    }

    @Test
    void noCardNumberOrSecurityCodeReachesALogEvenAtDebug(CapturedOutput output) {
        logging.setLogLevel("org.springframework.web", LogLevel.TRACE);
        logging.setLogLevel("org.thymeleaf", LogLevel.TRACE);
        var session = session("");
        String token = csrf(anonymous().get(session.path()).send());

        // refused on the page (Luhn), then paid
        var refused = postForm(session.path() + "/pay", card(token, "4242424242424241"));
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.text()).doesNotContain("4242424242424241").doesNotContain("987");
        postForm(session.path() + "/pay", card(csrf(refused), "4242424242424242"));

        // the number reached the processor: the payment succeeded with its last four digits
        var paid = merchant.test().get("/collect/payment_sessions/" + session.paymentSessionId()).send().json();
        assertThat(paid.get("payment_outcome").stringValue()).isEqualTo("paid");
        var payment = merchant.test().get("/collect/payments/" + paid.get("payment_id").stringValue()).send().json();
        assertThat(payment.get("payment_method_details").get("card").get("last4").stringValue()).isEqualTo("4242");
        assertThat(output.getAll()).contains(session.path() + "/pay"); // TRACE is really on
        assertThat(output.getAll()).doesNotContain("4242424242424241").doesNotContain("4242424242424242")
                .doesNotContain("security_code=987");
    }
}
