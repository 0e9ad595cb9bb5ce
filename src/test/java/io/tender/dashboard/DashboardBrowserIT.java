package io.tender.dashboard;

import io.tender.auth.Mode;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Browser;
import io.tender.support.Browser.Window;
import io.tender.support.Merchants.Merchant;
import io.tender.support.PaymentRows;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.By;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The way in, as a person takes it, in Debian's chromium: the owner opens the one-time link the admin API answered,
 * chooses a password, lands on Home, signs out, fails once, signs in, and sees Home again. Every page is checked with
 * axe-core (no serious or critical finding) and saved at phone and desktop width under
 * {@code target/screenshots/dashboard/}.
 */
class DashboardBrowserIT extends ApiIntegrationTest {

    private static final String PASSWORD = "a long and memorable passphrase";

    @org.springframework.beans.factory.annotation.Autowired
    private io.tender.checkout.Checkout checkout;

    @ParameterizedTest
    @EnumSource(Window.class)
    void anOwnerOpensTheirLinkChoosesAPasswordSignsOutAndBackInAndSeesHome(Window window) {
        Merchant merchant = merchants.create();
        String email = "finance-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        seedThirtyDaysOfPayments(merchant.id());
        String paidByCard = paidInTheSandbox(merchant);
        var created = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"" + email + "\",\"role\":\"owner\"}").send();
        String link = created.json().get("sign_in_url").stringValue();
        String prefix = window.name().toLowerCase();

        try (Browser browser = Browser.open("dashboard", window)) {
            browser.get(link).awaitText("Choose your password");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-1-set-password");

            browser.type("New password", "too short").type("The same password again", "too short")
                    .click("Set password and sign in").awaitText("Use at least 12 characters.");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-2-set-password-error");

            browser.type("New password", PASSWORD).type("The same password again", PASSWORD)
                    .click("Set password and sign in").awaitUrl(base() + "/dashboard/test").awaitText("Succeeded");
            assertThat(browser.text()).contains("Test mode").contains(merchant.name()).contains("Uncaptured")
                    .contains("Failed").contains("ZAR ");
            assertThat(browser.findAll(By.cssSelector("svg .bar"))).hasSize(30);
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-3-home");

            browser.click("Sign out").awaitText("You have signed out.");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-4-signed-out");

            browser.type("Email", email).type("Password", "not my password").click("Sign in")
                    .awaitText(SignInController.GENERIC_ERROR);
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-5-sign-in-error");

            browser.type("Email", email).type("Password", PASSWORD).click("Sign in")
                    .awaitUrl(base() + "/dashboard/test").awaitText("Succeeded");
            browser.click("Live").awaitUrl(base() + "/dashboard/live").awaitText("No payments in these 30 days yet");
            assertThat(browser.text()).doesNotContain("Test mode");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-6-home-live-empty");
            assertThat(browser.script("return typeof htmx").toString()).as("htmx loaded from this origin").isEqualTo("object");

            browser.click("Payments").awaitText("No payments match");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-7-payments-live-empty");

            browser.get(base() + "/dashboard/test/payments").awaitText("Results");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-8-payments");
            browser.type("Card last 4", "42").click("Apply filters").awaitText("must be the last 4 digits of a card");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-9-payments-filter-error");
            browser.type("Card last 4", "4242").click("Apply filters").awaitText("Visa ···· 4242");
            assertThat(browser.findAll(By.cssSelector("table.payments tbody tr"))).hasSize(4);
            assertThat(browser.text()).doesNotContain("Visa ···· 1881");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-10-payments-by-last4");
            browser.find(By.cssSelector("table.payments tbody tr a[href$='" + paidByCard + "']")).click();
            browser.awaitText("Timeline").awaitText("Payment attempt");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-11-payment");

            browser.type("Amount to refund (ZAR, empty for all)", "25.00").click("Refund…").awaitText("Refund ZAR 25.00?");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-12-refund-confirm");
            browser.click("Refund ZAR 25.00").awaitText("Refund made.");
            assertThat(browser.text()).contains("ZAR 25.00").contains("Refund rfd_");
            Axe.noSeriousFindings(browser);
            browser.screenshot(prefix + "-13-refunded");
        }
    }

    /** A card payment of ZAR 120.00 taken through the sandbox (so it can be refunded); its id. */
    private String paidInTheSandbox(Merchant merchant) {
        var session = merchant.test().post("/collect/payment_sessions", "{\"amount\":12000,\"currency\":\"ZAR\"}")
                .send().json();
        var attempt = checkout.payByCard(session.get("checkout_session_id").stringValue(), "4242424242424242", 12,
                java.time.YearMonth.now().getYear() + 2, "123");
        assertThat(attempt.status()).isEqualTo("succeeded");
        return attempt.paymentId();
    }

    /**
     * A month of test payments as a shop might have: most succeed, some fail, a few wait for a capture; the last
     * day's four by card, three of them with the card ending 4242.
     */
    private void seedThirtyDaysOfPayments(String merchantId) {
        PaymentRows cards = new PaymentRows(jdbc);
        for (int i = 0; i < 4; i++) {
            String last4 = i < 3 ? "4242" : "1881";
            String reference = "order-" + last4 + "-" + i;
            cards.payment(merchantId, Mode.TEST, Instant.now().minusSeconds(60L * (i + 1)), p -> {
                p.put("details", PaymentRows.card("visa", last4));
                p.put("externalReference", reference);
            });
        }
        Random random = new Random(7);
        Instant today = Instant.now().truncatedTo(ChronoUnit.DAYS).plus(12, ChronoUnit.HOURS);
        for (int day = 0; day < 30; day++) {
            int count = 2 + random.nextInt(5);
            for (int i = 0; i < count; i++) {
                long amount = (5 + random.nextInt(60)) * 1_000L + random.nextInt(100);
                int roll = random.nextInt(10);
                String status = roll == 0 ? "failed" : "succeeded";
                boolean uncaptured = roll == 1;
                var at = today.minus(day, ChronoUnit.DAYS).atOffset(ZoneOffset.UTC);
                jdbc.sql("insert into payments (id, merchant_id, mode, status, amount, currency, paid_amount, "
                                + "authorized_amount, capture_method, created_at, updated_at) "
                                + "values (?, ?, 'test', ?, ?, 'ZAR', ?, ?, ?, ?, ?)")
                        .params("pay_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24), merchantId,
                                status, amount, status.equals("succeeded") && !uncaptured ? amount : 0,
                                status.equals("succeeded") ? amount : 0, uncaptured ? "manual" : "automatic", at, at)
                        .update();
            }
        }
    }
}
