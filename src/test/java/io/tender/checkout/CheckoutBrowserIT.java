package io.tender.checkout;

import com.sun.net.httpserver.HttpServer;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Browser;
import io.tender.support.Browser.Window;
import io.tender.support.Merchants;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hosted checkout in a real browser (headless Debian chromium), against the real service over HTTP: sessions
 * made by a merchant with {@code POST /collect/payment_sessions} and its secret test key, paid on the pages against
 * the sandbox processor, then read back over the API. Every method and page state is saved as a screenshot under
 * {@code target/screenshots/<test>/}. A merchant's site runs on another origin ({@code http://127.0.0.1:<port>}, the
 * service being {@code http://localhost:<port>}) for the return_url and the embedded checkout.
 */
class CheckoutBrowserIT extends ApiIntegrationTest {

    private Merchants.Merchant merchant;
    private HttpServer merchantSite;
    private volatile String shopPage = "";

    @BeforeEach
    void startMerchantSite() throws IOException {
        merchant = merchants.create();
        merchantSite = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        merchantSite.createContext("/return", exchange -> {
            byte[] page = "<!DOCTYPE html><title>Shop</title><h1>Back at the shop</h1>".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        merchantSite.createContext("/shop", exchange -> {
            byte[] page = shopPage.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        merchantSite.start();
    }

    @AfterEach
    void stopMerchantSite() {
        merchantSite.stop(0);
    }

    private String merchantOrigin() {
        return "http://127.0.0.1:" + merchantSite.getAddress().getPort();
    }

    private record Session(String url, String paymentSessionId) {
    }

    /** A ZAR 150.00 session with these {@code options} (the inside of the object), made with the secret test key. */
    private Session session(String options) {
        var response = merchant.test().post("/collect/payment_sessions",
                "{\"amount\": 15000, \"currency\": \"ZAR\", \"options\": {" + options + "}}").send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return new Session(response.json().get("session_url").stringValue(), response.json().get("id").stringValue());
    }

    private JsonNode paymentSession(Session session) {
        var response = merchant.test().get("/collect/payment_sessions/" + session.paymentSessionId()).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    private JsonNode payment(String paymentId) {
        var response = merchant.test().get("/collect/payments/" + paymentId).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    /** The ids of the merchant's test-mode events of a type. */
    private List<String> eventSubjects(String type) {
        var response = merchant.test().get("/events?limit=100&type=" + type).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        response.json().get("data").forEach(e -> ids.add(e.get("data").get("id").stringValue()));
        return ids;
    }

    private String returnTo() {
        return "Return to " + merchant.name();
    }

    private static void payByCard(Browser browser, String number) {
        browser.type("Card number", number).type("Expiry date", "12/34").type("Security code", "123");
        browser.click("Pay ZAR 150.00");
    }

    @Test
    void aCustomerPaysByCardOnAPhone() {
        var session = session("");
        try (Browser browser = Browser.open("card-phone", Window.PHONE)) {
            browser.get(session.url()).awaitText("Pay ZAR 150.00");
            assertThat(browser.text()).contains(merchant.name(), "ZAR 150.00", "Card", "Pay by bank", "Capitec Pay",
                    "Mobile money");
            browser.screenshot("1-card-form");
            browser.type("Card number", "4242424242424242").type("Expiry date", "12/34").type("Security code", "123");
            assertThat(browser.labelled("Card number").getDomProperty("value")).isEqualTo("4242 4242 4242 4242");
            browser.screenshot("2-card-filled");
            browser.click("Pay ZAR 150.00").awaitText("Payment successful");
            assertThat(browser.text()).contains("ZAR 150.00 paid to " + merchant.name() + " with VISA •••• 4242");
            browser.screenshot("3-result");
        }
        JsonNode paid = paymentSession(session);
        assertThat(paid.get("status").stringValue()).isEqualTo("completed");
        assertThat(paid.get("payment_outcome").stringValue()).isEqualTo("paid");
        String paymentId = paid.get("payment_id").stringValue();
        JsonNode payment = payment(paymentId);
        assertThat(payment.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(payment.get("amount").longValue()).isEqualTo(15000);
        assertThat(payment.get("paid_amount").longValue()).isEqualTo(15000);
        assertThat(payment.get("payment_method_details").get("card").get("last4").stringValue()).isEqualTo("4242");
        assertThat(eventSubjects("payment.succeeded")).containsExactly(paymentId);
    }

    @Test
    void theBrowserRefusesABadCardBeforeAnythingIsSent() {
        var session = session("");
        try (Browser browser = Browser.open("card-desktop", Window.DESKTOP)) {
            browser.get(session.url()).awaitText("Pay ZAR 150.00");
            browser.screenshot("1-card-form");
            browser.type("Card number", "4242424242424241").type("Expiry date", "01/20").type("Security code", "12");
            browser.click("Pay ZAR 150.00");
            var error = browser.find(By.id("card_number-error"));
            assertThat(error.getText()).isEqualTo("This card number is not valid. Check it and try again.");
            assertThat(browser.labelled("Card number").getDomAttribute("aria-describedby")).isEqualTo("card_number-error");
            assertThat(browser.labelled("Card number").getDomAttribute("aria-invalid")).isEqualTo("true");
            assertThat(browser.labelled("Expiry date").getDomAttribute("aria-describedby")).contains("expiry-error");
            assertThat(browser.text()).contains("This card has expired.");
            browser.screenshot("2-checked-in-the-browser");
        }
        assertThat(paymentSession(session).get("payment_outcome").stringValue()).isEqualTo("not_started");
    }

    @Test
    void aDeclinedCardShowsTheReasonAndASecondCardPays() {
        var session = session("""
                "checkout_options": {"visible_payment_methods": ["card"]}""");
        try (Browser browser = Browser.open("decline-then-retry", Window.PHONE)) {
            browser.get(session.url()).awaitText("Pay ZAR 150.00");
            payByCard(browser, "4000000000009995");
            browser.awaitText("Payment not completed");
            assertThat(browser.find(By.id("attempt-error")).getText()).contains("insufficient funds");
            browser.screenshot("1-declined");
            payByCard(browser, "4000 0000 0000 0002");
            browser.awaitText("Your card was declined. Try another card");
            browser.screenshot("2-declined-again");
            payByCard(browser, "5555555555554444");
            browser.awaitText("Payment successful").awaitText("MASTERCARD •••• 4444");
            browser.screenshot("3-paid");
        }
    }

    @Test
    void threeDSecureApprovedPays() {
        var session = session("");
        try (Browser browser = Browser.open("3ds-approve", Window.PHONE)) {
            browser.get(session.url()).awaitText("Pay ZAR 150.00");
            payByCard(browser, "4000000000003220");
            browser.awaitText("Confirm it is you");
            assertThat(browser.url()).endsWith("/action");
            browser.screenshot("1-3ds-page");
            browser.click("Approve").awaitText("Payment successful");
            browser.screenshot("2-paid");
        }
    }

    @Test
    void threeDSecureDeclinedLetsTheCustomerTryAgain() {
        var session = session("");
        try (Browser browser = Browser.open("3ds-decline", Window.DESKTOP)) {
            browser.get(session.url()).awaitText("Pay ZAR 150.00");
            payByCard(browser, "4000000000003220");
            browser.awaitText("Confirm it is you");
            browser.screenshot("1-3ds-page");
            browser.click("Decline").awaitText("The payment was not approved.");
            browser.screenshot("2-declined");
            payByCard(browser, "4242424242424242");
            browser.awaitText("Payment successful");
        }
    }

    @Test
    void payByBankGoesThroughTheBanksPage() {
        var session = session("""
                "checkout_options": {"selected_payment_method": "pay_by_bank"}""");
        try (Browser browser = Browser.open("pay-by-bank", Window.PHONE)) {
            browser.get(session.url()).awaitText("You will approve the payment on your bank's page.");
            browser.screenshot("1-choose-bank");
            browser.select("Bank", "Nedbank");
            browser.click("Pay ZAR 150.00").awaitText("Approve at Nedbank");
            assertThat(browser.text()).contains("Approve", "Decline", "Cancel");
            browser.screenshot("2-bank-page");
            browser.click("Cancel").awaitText("You cancelled the payment at your bank.");
            browser.screenshot("3-cancelled-at-bank");
            browser.select("Bank", "Nedbank");
            browser.click("Pay ZAR 150.00").awaitText("Approve at Nedbank");
            browser.click("Approve").awaitText("Payment successful");
            browser.screenshot("4-paid");
        }
    }

    @Test
    void capitecPayWaitsForTheApprovalInTheApp() {
        var session = session("""
                "checkout_options": {"selected_payment_method": "capitec_pay"},
                "payment_method_options": {"capitec_pay": {"phone_number": "+27821234567"}}""");
        try (Browser browser = Browser.open("capitec-pay", Window.PHONE)) {
            browser.get(session.url()).awaitText("You will approve the payment in the Capitec app");
            assertThat(browser.labelled("Phone number").getDomProperty("value")).isEqualTo("+27821234567");
            browser.screenshot("1-phone");
            browser.click("Pay ZAR 150.00").awaitText("Waiting for your approval");
            browser.screenshot("2-waiting");
            browser.awaitText("Payment successful");
            browser.screenshot("3-paid");
        }
    }

    @Test
    void mobileMoneyDeclinedForAPhoneEndingIn0002() {
        var session = session("""
                "checkout_options": {"visible_payment_methods": ["mobile_money"]}""");
        try (Browser browser = Browser.open("mobile-money", Window.PHONE)) {
            browser.get(session.url()).awaitText("Pay with mobile money");
            // The sandbox declines a number ending in 0002 at once, without waiting for the app.
            browser.type("Phone number", "082 000 0002").click("Pay ZAR 150.00");
            browser.awaitText("The payment was declined in the app.");
            browser.screenshot("1-declined");
            browser.type("Phone number", "082 123 4567").click("Pay ZAR 150.00");
            browser.awaitText("Payment successful");
            browser.screenshot("2-paid");
        }
    }

    @Test
    void manualCaptureShowsTheAuthorisation() {
        var session = session("""
                "checkout_options": {"return_url": "%s/return"},
                "payment_method_options": {"card": {"capture_method": "manual"}}""".formatted(merchantOrigin()));
        try (Browser browser = Browser.open("manual-capture", Window.PHONE)) {
            browser.get(session.url()).awaitText("Pay ZAR 150.00");
            payByCard(browser, "4242424242424242");
            browser.awaitText("Payment authorised");
            assertThat(browser.text()).contains("ZAR 150.00 authorised for " + merchant.name() + " with VISA •••• 4242");
            browser.screenshot("1-authorised");
            browser.click(returnTo()).awaitUrl(merchantOrigin() + "/return");
            assertThat(browser.url()).contains("payment_session=" + session.paymentSessionId(), "outcome=reserved");
        }
        JsonNode reserved = paymentSession(session);
        assertThat(reserved.get("payment_outcome").stringValue()).isEqualTo("reserved");
        String paymentId = reserved.get("payment_id").stringValue();
        JsonNode authorised = payment(paymentId);
        assertThat(authorised.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(authorised.get("authorized_amount").longValue()).isEqualTo(15000);
        assertThat(authorised.get("paid_amount").longValue()).isZero();

        var open = merchant.test().post("/collect/payments/" + paymentId + "/refunds", "{}").send();
        assertThat(open.status()).as("an open authorization is voided, not refunded").isEqualTo(409);
        var captured = merchant.test().post("/collect/payments/" + paymentId + "/captures", "{\"amount\": 15000}").send();
        assertThat(captured.status()).as(captured.toString()).isEqualTo(200);
        assertThat(captured.json().get("paid_amount").longValue()).isEqualTo(15000);
        assertThat(payment(paymentId).get("paid_amount").longValue()).isEqualTo(15000);

        // The captured money of the card paid in the browser goes back in part.
        var refunded = merchant.test().post("/collect/payments/" + paymentId + "/refunds", "{\"amount\": 5000}").send();
        assertThat(refunded.status()).as(refunded.toString()).isEqualTo(201);
        assertThat(refunded.json().get("status").stringValue()).isEqualTo("succeeded");
        assertThat(payment(paymentId).get("refunded_amount").longValue()).isEqualTo(5000);
    }

    @Test
    void merchantSelectionSendsTheCustomerBackAfterEveryAttempt() {
        var session = session("""
                "checkout_options": {"visible_payment_methods": ["card", "pay_by_bank"],
                 "selected_payment_method": "card", "payment_method_selection": "merchant",
                 "return_url": "%s/return?order=42"}""".formatted(merchantOrigin()));
        try (Browser browser = Browser.open("merchant-selection", Window.PHONE)) {
            browser.get(session.url()).awaitText("Pay ZAR 150.00");
            payByCard(browser, "4000000000000002");
            browser.awaitUrl(merchantOrigin() + "/return").awaitText("Back at the shop");
            assertThat(browser.url()).contains("order=42", "payment_session=" + session.paymentSessionId(), "outcome=failed");

            var completed = merchant.test().post("/collect/payment_sessions/" + session.paymentSessionId() + "/complete",
                    "{\"selected_payment_method\": \"pay_by_bank\"}").send();
            assertThat(completed.status()).as(completed.toString()).isEqualTo(200);
            browser.get(session.url()).awaitText("You will approve the payment on your bank's page.");
            browser.screenshot("1-after-complete");
            browser.select("Bank", "FNB");
            browser.click("Pay ZAR 150.00").awaitText("Approve at FNB");
            browser.click("Approve").awaitUrl(merchantOrigin() + "/return");
            assertThat(browser.url()).contains("outcome=paid");
        }
    }

    /** A merchant's page on another origin mounting the checkout inline, with its own pay button. */
    private String shop(String sessionUrl, String mount) {
        return """
                <!DOCTYPE html><html><head><title>Shop</title>
                <script src="%s/checkout.js"></script></head>
                <body><h1>Your basket</h1><div id="pay"></div>
                <button id="shop-pay" type="button">Place order</button>
                <p id="outcome">no outcome</p>
                <script>
                  var checkout = TenderCheckout.%s("%s", { container: "#pay", onOutcome: function (o) {
                    document.getElementById("outcome").textContent = o.outcome + " " + o.payment_session; } });
                  document.getElementById("shop-pay").addEventListener("click", function () { checkout.submit(); });
                </script></body></html>""".formatted(base(), mount, sessionUrl);
    }

    @Test
    void anEmbeddedInlineCheckoutOnTheMerchantsOwnOriginPaysWithTheMerchantsButton() {
        var session = session("""
                "checkout_options": {"visible_payment_methods": ["card"], "presentation_mode": "embedded_inline",
                 "display_pay_button": false, "return_url": "%s/return"}""".formatted(merchantOrigin()));
        shopPage = shop(session.url(), "mount");
        try (Browser browser = Browser.open("embedded-inline", Window.DESKTOP)) {
            browser.get(merchantOrigin() + "/shop").awaitText("Your basket");
            var frame = browser.find(By.cssSelector("#pay iframe"));
            browser.driver().switchTo().frame(frame);
            browser.awaitText("ZAR 150.00");
            assertThat(browser.find(By.cssSelector("body")).getText()).doesNotContain("Pay ZAR 150.00");
            browser.type("Card number", "4242424242424242").type("Expiry date", "12/34").type("Security code", "123");
            browser.driver().switchTo().defaultContent();
            browser.screenshot("1-mounted");
            browser.click("Place order");
            browser.await(d -> d.findElement(By.id("outcome")).getText().equals("paid " + session.paymentSessionId()),
                    "the outcome posted to the merchant's page");
            browser.screenshot("2-outcome-posted");
        }
    }

    @Test
    void onOutcomeHearsOnlyItsOwnCheckoutFrameNotForgedMessagesFromThePageAnotherOriginOrAnotherCheckout()
            throws IOException {
        // Three forgers post "paid" to the merchant's page: the page's own script (another window: the page itself),
        // a frame of a third origin (http://127.0.0.2), and a second checkout of the same origin as the first (its
        // real messages, about its own session). checkout.js hands each mounted checkout only what its own frame, of
        // its own origin, says.
        HttpServer thirdSite = HttpServer.create(new InetSocketAddress("127.0.0.2", 0), 0);
        thirdSite.createContext("/forge", exchange -> {
            byte[] page = """
                    <!DOCTYPE html><title>Ad</title><script>
                    setInterval(function () { parent.postMessage({ type: "tender:checkout.outcome",
                      payment_session: "ps_forged_by_frame", outcome: "paid" }, "*"); }, 100);
                    </script>""".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        thirdSite.start();
        try (Browser browser = Browser.open("embedded-forged-messages", Window.DESKTOP)) {
            String options = """
                    "checkout_options": {"visible_payment_methods": ["card"], "presentation_mode": "embedded_inline",
                     "return_url": "%s/return"}""".formatted(merchantOrigin());
            var first = session(options);
            var second = session(options);
            shopPage = """
                    <!DOCTYPE html><html><head><title>Shop</title>
                    <script src="%s/checkout.js"></script></head>
                    <body><h1>Your basket</h1><div id="first"></div><div id="second"></div>
                    <p id="first-outcome">no outcome</p><p id="second-outcome">no outcome</p><p id="seen"></p>
                    <iframe src="http://127.0.0.2:%d/forge" title="Ad"></iframe>
                    <script>
                      // Every message the page receives, to show that the forgeries did arrive.
                      window.addEventListener("message", function (e) {
                        if (e.data && e.data.payment_session) {
                          document.getElementById("seen").textContent += " " + e.data.payment_session; } });
                      function shown(id) { return function (o) {
                        document.getElementById(id).textContent = o.outcome + " " + o.payment_session; }; }
                      TenderCheckout.mount("%s", { container: "#first", onOutcome: shown("first-outcome") });
                      TenderCheckout.mount("%s", { container: "#second", onOutcome: shown("second-outcome") });
                      setInterval(function () { window.postMessage({ type: "tender:checkout.outcome",
                        payment_session: "ps_forged_by_page", outcome: "paid" }, "*"); }, 100);
                    </script></body></html>""".formatted(base(), thirdSite.getAddress().getPort(), first.url(),
                    second.url());
            browser.get(merchantOrigin() + "/shop").awaitText("Your basket");
            browser.await(d -> {
                String seen = d.findElement(By.id("seen")).getText();
                return seen.contains("ps_forged_by_frame") && seen.contains("ps_forged_by_page");
            }, "the forged messages reaching the page");

            // The second checkout pays: its frame posts its outcome, which the first checkout's listener hears too.
            browser.driver().switchTo().frame(browser.find(By.cssSelector("#second iframe")));
            payByCard(browser, "4242424242424242");
            browser.awaitText("Payment successful");
            browser.driver().switchTo().defaultContent();
            browser.await(d -> d.findElement(By.id("second-outcome")).getText()
                    .equals("paid " + second.paymentSessionId()), "the second checkout's own outcome");
            browser.await(d -> d.findElement(By.id("seen")).getText().contains(second.paymentSessionId()),
                    "the second checkout's outcome reaching the page");
            browser.screenshot("1-forgeries-ignored");
            assertThat(browser.find(By.id("first-outcome")).getText()).isEqualTo("no outcome");
            assertThat(paymentSession(first).get("payment_outcome").stringValue()).isEqualTo("not_started");
            // Later forgeries still change nothing.
            int forged = browser.find(By.id("seen")).getText().split("ps_forged_by_frame", -1).length;
            browser.await(d -> d.findElement(By.id("seen")).getText().split("ps_forged_by_frame", -1).length > forged + 3,
                    "more forged messages");
            assertThat(browser.find(By.id("second-outcome")).getText()).isEqualTo("paid " + second.paymentSessionId());
            assertThat(browser.find(By.id("first-outcome")).getText()).isEqualTo("no outcome");
        } finally {
            thirdSite.stop(0);
        }
    }

    @Test
    void anEmbeddedModalCheckoutOpensAsAnOverlay() {
        var session = session("""
                "checkout_options": {"visible_payment_methods": ["card"], "presentation_mode": "embedded_modal",
                 "return_url": "%s/return"}""".formatted(merchantOrigin()));
        shopPage = shop(session.url(), "open");
        try (Browser browser = Browser.open("embedded-modal", Window.PHONE)) {
            browser.get(merchantOrigin() + "/shop");
            var frame = browser.find(By.cssSelector("[role=dialog] iframe"));
            browser.driver().switchTo().frame(frame);
            browser.awaitText("Pay ZAR 150.00");
            browser.type("Card number", "4000000000000002").type("Expiry date", "12/34").type("Security code", "123");
            browser.click("Pay ZAR 150.00").awaitText("Your card was declined.");
            browser.driver().switchTo().defaultContent();
            browser.screenshot("1-overlay-declined");
            browser.driver().switchTo().frame(browser.find(By.cssSelector("[role=dialog] iframe")));
            browser.type("Card number", "4242424242424242").type("Expiry date", "12/34").type("Security code", "123");
            browser.click("Pay ZAR 150.00").awaitText("Payment successful");
            browser.driver().switchTo().defaultContent();
            browser.await(d -> d.findElement(By.id("outcome")).getText().startsWith("paid "), "the outcome");
            browser.screenshot("2-overlay-paid");
        }
    }

    @Test
    void withJavaScriptOffTheServerChecksTheFormAndTheWaitingPageRefreshesItself() {
        var session = session("""
                "checkout_options": {"return_url": "%s/return"}""".formatted(merchantOrigin()));
        try (Browser browser = Browser.withoutJavaScript("javascript-off", Window.PHONE)) {
            browser.get(session.url()).awaitText("Pay ZAR 150.00");
            browser.type("Card number", "4242424242424241").type("Expiry date", "12/34").type("Security code", "123");
            browser.click("Pay ZAR 150.00").awaitText("Check the details below");
            assertThat(browser.find(By.id("card_number-error")).getText()).contains("not valid");
            assertThat(browser.labelled("Card number").getDomProperty("value")).isEmpty(); // never rendered back
            assertThat(browser.labelled("Expiry date").getDomProperty("value")).isEqualTo("12/34");
            browser.screenshot("1-server-checked");
            assertThat(paymentSession(session).get("payment_outcome").stringValue()).isEqualTo("not_started");

            browser.get(session.url() + "?method=mobile_money").awaitText("Phone number");
            browser.type("Phone number", "082 123 4567").click("Pay ZAR 150.00").awaitText("Waiting for your approval");
            browser.screenshot("2-waiting-without-javascript");
            browser.awaitText("Payment successful");
            browser.screenshot("3-paid");
            browser.click(returnTo()).awaitUrl(merchantOrigin() + "/return");
            assertThat(browser.url()).contains("outcome=paid");
        }
    }
}
