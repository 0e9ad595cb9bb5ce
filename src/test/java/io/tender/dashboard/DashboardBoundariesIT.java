package io.tender.dashboard;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What keeps the dashboard and the API apart, and one merchant's people from another's (decisions §11), over real
 * HTTP: a session cookie never authorises an API call, an API key never opens a page, every POST needs its CSRF
 * token, a viewer's forged POST to an action of a developer or owner is 403, the merchant is the signed-in user's
 * whatever the request says, and the pages carry the strict CSP.
 */
class DashboardBoundariesIT extends ApiIntegrationTest {

    private static final String PASSWORD = DashboardSignInIT.PASSWORD;

    private DashboardClient signedIn(Merchant merchant, String role, String address) {
        DashboardClient browser = DashboardClient.member(base(), merchants, merchant, role, address);
        assertThat(browser.get("/dashboard/test").status()).isEqualTo(200);
        return browser;
    }

    @Test
    void aDashboardSessionCookieNeverAuthorisesAnApiCall() {
        DashboardClient browser = signedIn(merchants.create(), "owner", "127.0.0.51");
        String cookie = "tender_dashboard=" + browser.sessionCookie().orElseThrow();

        var payments = new DashboardClient(base()).get("/collect/payments", "Cookie", cookie);
        assertThat(payments.status()).isEqualTo(401);
        assertThat(payments.header("Content-Type")).startsWith("application/problem+json");
        var sessions = new DashboardClient(base()).postExactly("/collect/payment_sessions", Map.of(), "Cookie", cookie);
        assertThat(sessions.status()).isIn(401, 415);
        assertThat(sessions.status()).isNotEqualTo(201);
    }

    @Test
    void anApiKeyNeverOpensTheDashboard() {
        Merchant merchant = merchants.create();
        for (String path : new String[]{"/dashboard/test", "/dashboard/live", "/dashboard"}) {
            var page = new DashboardClient(base()).get(path, "Authorization", "Bearer " + merchant.test().key());
            assertThat(page.status()).as(path).isEqualTo(302);
            assertThat(page.location()).as(path).matches(".*/dashboard/(sign-in|test)$");
            assertThat(page.body()).doesNotContain("<h1>Home</h1>");
        }
        var followed = new DashboardClient(base()).get("/dashboard/test", "Authorization", "Bearer " + merchant.live().key());
        assertThat(followed.location()).endsWith("/dashboard/sign-in");
        assertThat(followed.headers("Set-Cookie")).as("no session for a key's probe").isEmpty();
    }

    @Test
    void everyDashboardPostWithoutItsCsrfTokenIs403() {
        Merchant merchant = merchants.create();
        var created = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"csrf-" + UUID.randomUUID() + "@example.com\",\"role\":\"owner\"}").send();
        String link = URI.create(created.json().get("sign_in_url").stringValue()).getPath();

        DashboardClient browser = new DashboardClient(base(), "127.0.0.52");
        browser.get("/dashboard/sign-in");
        var noToken = browser.postExactly("/dashboard/sign-in", Map.of("email", "a@example.com", "password", PASSWORD));
        assertThat(noToken.status()).isEqualTo(403);
        assertThat(noToken.header("Content-Type")).as("a page for a person, not a problem document").startsWith("text/html");
        assertThat(noToken.body()).contains("This form has expired").contains("Go to sign-in");
        assertThat(browser.postExactly("/dashboard/sign-in",
                Map.of("email", "a@example.com", "password", PASSWORD, "_csrf", "forged")).status()).isEqualTo(403);
        browser.get(link);
        assertThat(browser.postExactly(link, Map.of("password", PASSWORD, "confirmation", PASSWORD)).status())
                .isEqualTo(403);
        assertThat(browser.get(link).status()).as("the refused post did not use the link").isEqualTo(200);

        DashboardClient owner = signedIn(merchant, "owner", "127.0.0.52");
        for (String path : new String[]{"/dashboard/sign-out", "/dashboard/test/payments/pay_x/refund",
                "/dashboard/test/team/invitations", "/dashboard/test"}) {
            assertThat(owner.postExactly(path, Map.of()).status()).as(path).isEqualTo(403);
        }
        assertThat(owner.get("/dashboard/test").status()).as("still signed in").isEqualTo(200);
        // htmx sends the token as a header instead (hx-headers on <body>): that is accepted.
        var viaHeader = owner.postExactly("/dashboard/sign-out", Map.of(), "X-CSRF-TOKEN", owner.csrf());
        assertThat(viaHeader.status()).isEqualTo(302);
    }

    @Test
    void aViewersForgedPostToADeveloperOrOwnerActionIs403() {
        Merchant merchant = merchants.create();
        DashboardClient viewer = signedIn(merchant, "viewer", "127.0.0.53");
        for (String path : new String[]{"/dashboard/test/payments/pay_0123/refund", "/dashboard/test/payments/pay_0123/capture",
                "/dashboard/test/developers/keys", "/dashboard/live/developers/keys", "/dashboard/test/team/invitations",
                "/dashboard/test/subscriptions/sub_1/cancel"}) {
            assertThat(viewer.post(path, Map.of("amount", "100")).status()).as(path).isEqualTo(403);
        }
        DashboardClient developer = signedIn(merchant, "developer", "127.0.0.53");
        assertThat(developer.post("/dashboard/test/team/invitations", Map.of()).status()).isEqualTo(403);
        assertThat(developer.post("/dashboard/live/developers/keys", Map.of()).status()).isEqualTo(403);
        // Past the role check a developer's refund reaches the application (no such payment: not 403).
        assertThat(developer.post("/dashboard/test/payments/pay_0123/refund", Map.of()).status()).isEqualTo(404);
        assertThat(viewer.get("/dashboard/test").body()).doesNotContain(">Team<");
        var team = viewer.get("/dashboard/test/team");
        assertThat(team.status()).as("the team page is the owner's").isEqualTo(403);
        assertThat(team.header("Content-Type")).startsWith("text/html");
        assertThat(team.body()).contains("Your role cannot do this").contains("You are signed in as viewer.")
                .contains("Back to Home");
        var refused = viewer.post("/dashboard/test/payments/pay_0123/refund", Map.of("amount", "100"));
        assertThat(refused.body()).contains("Your role cannot do this").contains("Nothing was changed");
        var missing = viewer.get("/dashboard/live/no-such-page");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.header("Content-Type")).startsWith("text/html");
        assertThat(missing.body()).contains("Page not found").contains("href=\"/dashboard/live\"");
        assertThat(new DashboardClient(base()).get("/dashboard/live/no-such-page").status())
                .as("signed out: to the sign-in page, not a hint of what exists").isEqualTo(302);
        assertThat(viewer.get("/dashboard/test/payments").body()).as("a viewer reads payments").contains("Results");
        DashboardClient owner = signedIn(merchant, "owner", "127.0.0.53");
        assertThat(owner.get("/dashboard/test").body()).contains(">Team<");
        assertThat(owner.get("/dashboard/live/team").status()).isEqualTo(200);
    }

    @Test
    void homeShowsTheSignedInUsersMerchantOnlyWhateverTheRequestSays() {
        Merchant mine = merchants.create();
        Merchant theirs = merchants.create();
        payment(mine.id(), "test", "succeeded", 15_000, "ZAR");
        payment(mine.id(), "test", "failed", 2_000, "ZAR");
        payment(mine.id(), "live", "succeeded", 99_900, "ZAR");
        payment(theirs.id(), "test", "succeeded", 777_700, "ZAR");

        DashboardClient browser = signedIn(mine, "viewer", "127.0.0.54");
        String test = browser.get("/dashboard/test?merchant=" + theirs.id() + "&merchant_id=" + theirs.id(),
                "X-Merchant", theirs.name()).body();
        assertThat(test).contains("ZAR 150.00").doesNotContain("7,777.00").doesNotContain("ZAR 999.00");
        assertThat(test).contains("Test mode");
        String live = browser.get("/dashboard/live").body();
        assertThat(live).contains("ZAR 999.00").doesNotContain("ZAR 150.00").doesNotContain("Test mode</strong>");

        DashboardClient other = signedIn(theirs, "viewer", "127.0.0.54");
        assertThat(other.get("/dashboard/test").body()).contains("ZAR 7,777.00").doesNotContain("ZAR 150.00");
    }

    @Test
    void dashboardPagesHaveAStrictContentSecurityPolicyAndAreNeverCached() {
        DashboardClient browser = signedIn(merchants.create(), "owner", "127.0.0.55");
        for (String path : new String[]{"/dashboard/test", "/dashboard/sign-in"}) {
            var page = browser.get(path);
            String csp = page.header("Content-Security-Policy");
            assertThat(csp).as(path).contains("default-src 'self'").contains("frame-ancestors 'none'")
                    .doesNotContain("unsafe-inline").doesNotContain("unsafe-eval");
            assertThat(page.header("Cache-Control")).as(path).contains("no-store");
            assertThat(page.header("X-Frame-Options")).isEqualTo("DENY");
            assertThat(page.body()).as(path).doesNotContainPattern("<script(?![^>]*\\ssrc=)").doesNotContain("style=");
        }
    }

    @Test
    void theApiAndTheCheckoutGetNoHeaderSessionOrCsrfFromTheDashboardsSecurity() {
        Merchant merchant = merchants.create();
        var list = merchant.test().get("/collect/payments").send();
        assertThat(list.status()).isEqualTo(200);
        for (String header : new String[]{"Set-Cookie", "X-Frame-Options", "Content-Security-Policy",
                "X-XSS-Protection", "Pragma", "Expires"}) {
            assertThat(list.header(header)).as(header).isNull();
        }
        var session = merchant.test().post("/collect/payments", "{}").send();
        assertThat(session.status()).as("a POST without any CSRF token reaches the API").isNotEqualTo(403);
    }

    private void payment(String merchantId, String mode, String status, long amount, String currency) {
        var now = Instant.now().atOffset(ZoneOffset.UTC);
        jdbc.sql("insert into payments (id, merchant_id, mode, status, amount, currency, paid_amount, authorized_amount, "
                        + "created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                .params("pay_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24), merchantId, mode,
                        status, amount, currency, status.equals("succeeded") ? amount : 0,
                        status.equals("succeeded") ? amount : 0, now, now)
                .update();
    }
}
