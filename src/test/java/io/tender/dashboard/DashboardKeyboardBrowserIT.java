package io.tender.dashboard;

import io.tender.checkout.Checkout;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Browser;
import io.tender.support.Browser.Window;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.springframework.beans.factory.annotation.Autowired;

import java.time.Instant;
import java.time.YearMonth;
import java.util.UUID;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard with the keyboard alone (decisions §11: every action can be done with the keyboard), in chromium: an
 * owner sets their password, turns on two-step sign-in (the password again first, then the code computed here from the
 * key the page shows, as an authenticator app would), signs out and back in with a code, and refunds part of a payment through its
 * confirmation, moving only with Tab and typing, Enter to follow a link or press a button. Each element reached
 * shows where the focus is (an outline), and axe-core finds nothing serious on any page. Screenshots under
 * {@code target/screenshots/dashboard/{phone,desktop}-keyboard-*}.
 */
class DashboardKeyboardBrowserIT extends ApiIntegrationTest {

    private static final String PASSWORD = "a long and memorable passphrase";
    /** More Tab presses than any page has stops before its content: a control past it is not reachable. */
    private static final int MAX_TABS = 80;

    @Autowired
    private Checkout checkout;

    @ParameterizedTest
    @EnumSource(Window.class)
    void anOwnerTurnsOnTwoStepSignInSignsInWithACodeAndRefundsWithTheKeyboardAlone(Window window) {
        Merchant merchant = merchants.create();
        String email = "keys-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        String paymentId = paidInTheSandbox(merchant);
        String link = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"" + email + "\",\"role\":\"owner\"}").send().json().get("sign_in_url").stringValue();
        String prefix = window.name().toLowerCase() + "-keyboard";

        try (Browser browser = Browser.open("dashboard", window)) {
            browser.get(link).awaitText("Choose your password");
            tabTo(browser, "the new password", e -> "password".equals(e.getDomAttribute("id")));
            keys(browser, PASSWORD, Keys.TAB, PASSWORD, Keys.ENTER);
            browser.awaitUrl(base() + "/dashboard/test").awaitText("Succeeded");

            tabTo(browser, "the skip link", e -> e.getText().equals("Skip to content"));
            assertThat(browser.find(By.cssSelector(".skip-link")).isDisplayed()).as("the skip link shows on focus").isTrue();
            tabTo(browser, "the account link", e -> e.getText().equals(email));
            keys(browser, Keys.ENTER);
            browser.awaitText("Two-step sign-in");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-1-account-off");

            tabTo(browser, "the turn-on button", e -> e.getText().equals("Turn on two-step sign-in"));
            keys(browser, Keys.ENTER);
            browser.awaitText("Confirm it is you");
            Axe.noSeriousFindings(browser);
            tabTo(browser, "the password to confirm", e -> "reauth_password".equals(e.getDomAttribute("id")));
            keys(browser, PASSWORD, Keys.ENTER);
            browser.awaitText("Scan this code");
            String secret = browser.find(By.id("secret")).getText();
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-2-second-factor-setup");
            tabTo(browser, "the code field", e -> "code".equals(e.getDomAttribute("id")));
            keys(browser, DashboardSecondFactorIT.code(secret, Instant.now()), Keys.ENTER);
            browser.awaitText("Save your recovery codes");
            assertThat(browser.findAll(By.cssSelector(".recovery-codes li"))).hasSize(10);
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-3-recovery-codes");
            tabTo(browser, "the done link", e -> e.getText().equals("I have saved them"));
            keys(browser, Keys.ENTER);
            browser.awaitText("10 of 10 recovery codes left");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-4-account-on");

            tabTo(browser, "sign out", e -> e.getText().equals("Sign out"));
            keys(browser, Keys.ENTER);
            browser.awaitText("You have signed out.");
            tabTo(browser, "the email field", e -> "email".equals(e.getDomAttribute("id")));
            keys(browser, email, Keys.TAB, PASSWORD, Keys.ENTER);
            browser.awaitText("Enter your code");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-5-sign-in-code");
            tabTo(browser, "the code field", e -> "code".equals(e.getDomAttribute("id")));
            keys(browser, DashboardSecondFactorIT.code(secret, Instant.now().plusSeconds(30)), Keys.ENTER);
            browser.awaitUrl(base() + "/dashboard/test").awaitText("Succeeded");

            tabTo(browser, "Payments", e -> e.getTagName().equals("a")
                    && String.valueOf(e.getDomAttribute("href")).endsWith("/dashboard/test/payments"));
            keys(browser, Keys.ENTER);
            browser.awaitText("Results");
            tabTo(browser, "the payment", e -> e.getTagName().equals("a")
                    && String.valueOf(e.getDomAttribute("href")).endsWith(paymentId));
            keys(browser, Keys.ENTER);
            browser.awaitText("Timeline");
            tabTo(browser, "the refund amount", e -> "refund-amount".equals(e.getDomAttribute("id")));
            keys(browser, "10.00");
            tabTo(browser, "the refund button", e -> e.getText().equals("Refund…"));
            keys(browser, Keys.ENTER);
            browser.awaitText("Refund ZAR 10.00?");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-6-refund-confirm");
            tabTo(browser, "the confirming button", e -> e.getText().equals("Refund ZAR 10.00"));
            keys(browser, Keys.ENTER);
            browser.awaitText("Refund made.");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-7-refunded");
        }
        assertThat(merchant.test().get("/collect/refunds?payment=" + paymentId).send().text())
                .as("the refund made with the keyboard, as the API tells it").contains("\"amount\":1000");
    }

    /**
     * Presses Tab until the focused element is {@code target}, failing if it is not reached within
     * {@link #MAX_TABS}; the element must show its focus (an outline from {@code :focus-visible}).
     */
    private static void tabTo(Browser browser, String what, Predicate<WebElement> target) {
        if (Boolean.FALSE.equals(browser.script("return document.hasFocus()"))) {
            // Headless chromium gives a new page the focus at its first key, as a person's focused window has it at
            // once: Shift alone moves nothing, so an autofocused field keeps the focus and now shows it.
            new Actions(browser.driver()).keyDown(Keys.SHIFT).keyUp(Keys.SHIFT).perform();
        }
        for (int i = 0; i < MAX_TABS; i++) {
            WebElement focused = browser.driver().switchTo().activeElement();
            if (target.test(focused)) {
                Object outline = browser.script("return getComputedStyle(document.activeElement).outlineStyle");
                assertThat(outline).as("a visible focus on " + what).isNotEqualTo("none");
                return;
            }
            keys(browser, Keys.TAB);
        }
        throw new AssertionError(what + " was not reached with " + MAX_TABS + " presses of Tab on " + browser.url());
    }

    private static void keys(Browser browser, CharSequence... keys) {
        new Actions(browser.driver()).sendKeys(keys).perform();
    }

    private String paidInTheSandbox(Merchant merchant) {
        var session = merchant.test().post("/collect/payment_sessions", "{\"amount\":12000,\"currency\":\"ZAR\"}")
                .send().json();
        var attempt = checkout.payByCard(session.get("checkout_session_id").stringValue(), "4242424242424242", 12,
                YearMonth.now().getYear() + 2, "123");
        assertThat(attempt.status()).isEqualTo("succeeded");
        return attempt.paymentId();
    }
}
