package io.tender.dashboard;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Getting into the dashboard (decisions §11), over real HTTP against the embedded PostgreSQL: the admin endpoint
 * that makes a user and their one-time link, the link (once, for 24 hours), sign-in with one generic error, the
 * throttles per account and per address (the right password refused past them), the audit rows, and the cookie.
 * Each test connects from its own loopback address, so the per-address limit of one test never refuses another's.
 */
@ExtendWith(OutputCaptureExtension.class)
class DashboardSignInIT extends ApiIntegrationTest {

    static final String PASSWORD = "correct horse battery staple";

    @Autowired
    FirstStartLink firstStartLink;

    record User(String id, String email, String signInUrl) {
    }

    User user(Merchant merchant, String role) {
        String email = "person-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        var created = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"" + email + "\",\"role\":\"" + role + "\"}").send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return new User(created.json().get("id").stringValue(), email, created.json().get("sign_in_url").stringValue());
    }

    /**
     * What the very first start prints beside the test key (it runs when the service is ready; run here again, as
     * restarts would, to read what it prints): a link for the owner of {@code default} that signs them in; each start
     * before they choose a password prints a new one and the one before stops working (decisions §13: never several
     * links that work); nothing once they have a password, and no earlier link then resets it.
     */
    @Test
    void eachStartBeforeTheDefaultOwnerChoosesAPasswordPrintsALinkThatEndsTheOneBefore(CapturedOutput output) {
        Pattern printed = Pattern.compile("http://localhost:" + port + "/dashboard/link/[A-Za-z0-9_-]{43}");
        firstStartLink.printIfTheOwnerNeverSignedIn();
        Matcher first = printed.matcher(output.getOut());
        assertThat(first.find()).as(output.getOut()).isTrue();
        assertThat(output.getOut()).contains("owner@localhost").contains("valid for 24 hours")
                .contains("the one").contains("before stops working");

        int before = output.getOut().length();
        firstStartLink.printIfTheOwnerNeverSignedIn();
        Matcher second = printed.matcher(output.getOut().substring(before));
        assertThat(second.find()).isTrue();
        assertThat(second.group()).isNotEqualTo(first.group());

        DashboardClient someone = new DashboardClient(base(), "127.0.0.20");
        assertThat(someone.get(URI.create(first.group()).getPath()).status()).as("the earlier start's link")
                .isEqualTo(404);
        DashboardClient owner = new DashboardClient(base(), "127.0.0.20");
        assertThat(owner.acceptLink(second.group(), PASSWORD).status()).isEqualTo(302);
        assertThat(owner.get("/dashboard/test").body()).contains("default").contains("owner@localhost");

        int after = output.getOut().length();
        firstStartLink.printIfTheOwnerNeverSignedIn();
        assertThat(output.getOut().substring(after)).doesNotContain("/dashboard/link/");
        someone.get("/dashboard/sign-in");
        for (String link : List.of(first.group(), second.group())) {
            var page = someone.post(URI.create(link).getPath(), Map.of("password", "an attacker's password",
                    "confirmation", "an attacker's password"));
            assertThat(page.status()).as(link).isEqualTo(404);
        }
        assertThat(owner.signIn("owner@localhost", PASSWORD).status()).as("the password chosen stands")
                .isEqualTo(302);
    }

    /** Another link of the same user as one left by an earlier version (which printed one per start): its token. */
    private String anotherLink(String userId) {
        byte[] random = new byte[32];
        new java.security.SecureRandom().nextBytes(random);
        String token = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        jdbc.sql("insert into dashboard_sign_in_links (token_hash, user_id, created_at, expires_at) values "
                        + "(sha256(convert_to(?, 'UTF8')), ?, now(), now() + interval '1 day')")
                .params(token, userId).update();
        return "/dashboard/link/" + token;
    }

    @Test
    void usingALinkEndsEveryOtherLinkOfTheUser() {
        User user = user(merchants.create(), "owner");
        String other = anotherLink(user.id());
        assertThat(new DashboardClient(base(), "127.0.0.43").get(other).status()).as("works until one is used")
                .isEqualTo(200);

        DashboardClient browser = new DashboardClient(base(), "127.0.0.43");
        assertThat(browser.acceptLink(user.signInUrl(), PASSWORD).status()).isEqualTo(302);

        DashboardClient attacker = new DashboardClient(base(), "127.0.0.44");
        var page = attacker.get(other);
        assertThat(page.status()).isEqualTo(404);
        assertThat(page.body()).contains("This sign-in link no longer works");
        attacker.get("/dashboard/sign-in");
        assertThat(attacker.post(other, Map.of("password", "an attacker's password",
                "confirmation", "an attacker's password")).status()).isEqualTo(404);
        assertThat(attacker.get("/dashboard/test").status()).isEqualTo(302);
        assertThat(new DashboardClient(base(), "127.0.0.43").signIn(user.email(), PASSWORD).status()).isEqualTo(302);
    }

    /**
     * A link that meets a user who has a password (one left by an earlier version, or issued in a race the row lock
     * now orders) resets nothing: its page says why, with no form; a post of it changes nothing, signs nobody in, ends
     * the link and is in the merchant's audit log.
     */
    @Test
    void aLinkForSomeoneWhoHasAPasswordIsRefusedWithAPageAndChangesNothing() {
        Merchant merchant = merchants.create();
        User user = user(merchant, "owner");
        new DashboardClient(base(), "127.0.0.45").acceptLink(user.signInUrl(), PASSWORD);
        String hash = jdbc.sql("select password_hash from dashboard_users where id = ?").param(user.id())
                .query(String.class).single();
        String stale = anotherLink(user.id());

        DashboardClient attacker = new DashboardClient(base(), "127.0.0.46");
        var page = attacker.get(stale);
        assertThat(page.status()).isEqualTo(409);
        assertThat(page.body()).contains("This link cannot change a password").contains(user.email())
                .contains("has chosen a password already").doesNotContain("name=\"password\"");
        attacker.get("/dashboard/sign-in");
        var posted = attacker.post(stale, Map.of("password", "an attacker's password",
                "confirmation", "an attacker's password"));
        assertThat(posted.status()).isEqualTo(409);
        assertThat(posted.location()).isNull();
        assertThat(attacker.get("/dashboard/test").status()).as("signed in as nobody").isEqualTo(302);
        assertThat(jdbc.sql("select password_hash from dashboard_users where id = ?").param(user.id())
                .query(String.class).single()).as("the password stands").isEqualTo(hash);
        assertThat(attacker.get(stale).status()).as("the link ended").isEqualTo(404);
        assertThat(jdbc.sql("select count(*) from dashboard_audit_log where merchant_id = ? and user_id = ? "
                + "and action = 'sign_in_link.refused'").params(merchant.id(), user.id()).query(Long.class).single())
                .isEqualTo(1);
    }

    /**
     * A user whose second factor is on gives its code after choosing a password through a link, however they came to
     * have no password (an operator cleared it so that a new link lets them choose another): a link alone never signs
     * anyone in past the second factor.
     */
    @Test
    void aLinkNeverSignsInPastTheSecondFactor() {
        Merchant merchant = merchants.create();
        User user = user(merchant, "owner");
        DashboardClient browser = new DashboardClient(base(), "127.0.0.47");
        browser.acceptLink(user.signInUrl(), PASSWORD);
        browser.get("/dashboard/test/account");
        browser.post("/dashboard/test/account/second-factor/start", Map.of("reauth_password", PASSWORD));
        Matcher secret = Pattern.compile("id=\"secret\">([A-Z2-7 ]+)<")
                .matcher(browser.get("/dashboard/test/account/second-factor").body());
        assertThat(secret.find()).isTrue();
        String key = secret.group(1).replace(" ", "");
        assertThat(browser.post("/dashboard/test/account/second-factor/enable",
                Map.of("code", DashboardSecondFactorIT.code(key, Instant.now()))).status()).isEqualTo(200);
        jdbc.sql("update dashboard_users set password_hash = null where id = ?").param(user.id()).update();
        String link = anotherLink(user.id());

        DashboardClient holder = new DashboardClient(base(), "127.0.0.48");
        String newPassword = "a new password of her own";
        var chosen = holder.acceptLink("http://localhost" + link, newPassword);
        assertThat(chosen.status()).isEqualTo(302);
        assertThat(chosen.location()).endsWith("/dashboard/sign-in/code");
        assertThat(holder.get("/dashboard/test").status()).as("not signed in by the link alone").isEqualTo(302);
        assertThat(holder.get("/dashboard/sign-in/code").body()).contains("Enter your code");
        assertThat(holder.post("/dashboard/sign-in/code", Map.of("code", "000000")).status()).isEqualTo(401);
        var signedIn = holder.post("/dashboard/sign-in/code",
                Map.of("code", DashboardSecondFactorIT.code(key, Instant.now().plusSeconds(30))));
        assertThat(signedIn.status()).isEqualTo(302);
        assertThat(signedIn.location()).endsWith("/dashboard/test");
        assertThat(holder.get("/dashboard/test").status()).isEqualTo(200);
        assertThat(new DashboardClient(base(), "127.0.0.49").signIn(user.email(), newPassword).location())
                .as("the chosen password, then the code").endsWith("/dashboard/sign-in/code");
    }

    @Test
    void theAdminApiMakesAUserAndAnswersTheirOneTimeSignInUrlOnThePublicBaseUrl() {
        Merchant merchant = merchants.create();
        var created = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"Finance.Lead@Example.com\",\"role\":\"viewer\"}").send();

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().get("id").stringValue()).matches("usr_[0-9a-f]{24}");
        assertThat(created.json().get("email").stringValue()).isEqualTo("Finance.Lead@Example.com");
        assertThat(created.json().get("role").stringValue()).isEqualTo("viewer");
        assertThat(created.json().get("sign_in_url").stringValue())
                .matches("http://localhost:" + port + "/dashboard/link/[A-Za-z0-9_-]{43}");
        // Only the token's hash is stored.
        String token = created.json().get("sign_in_url").stringValue().replaceAll(".*/", "");
        assertThat(jdbc.sql("select count(*) from dashboard_sign_in_links where token_hash = sha256(convert_to(?, 'UTF8'))")
                .param(token).query(Long.class).single()).isEqualTo(1);
    }

    @Test
    void theAdminApiRefusesABadEmailOrRoleByNameAnUnknownMerchantATakenEmailAndAMissingToken() {
        Merchant merchant = merchants.create();
        String path = "/admin/merchants/" + merchant.name() + "/users";

        var badEmail = merchants.admin().post(path, "{\"email\":\"not an email\",\"role\":\"viewer\"}").send();
        assertProblem(badEmail, 400, "bad_request");
        assertThat(badEmail.json().get("errors").get(0).get("field").stringValue()).isEqualTo("email");

        var badRole = merchants.admin().post(path, "{\"email\":\"a@example.com\",\"role\":\"admin\"}").send();
        assertProblem(badRole, 400, "bad_request");
        assertThat(badRole.json().get("errors").get(0).get("field").stringValue()).isEqualTo("role");

        var unknownProperty = merchants.admin().post(path, "{\"email\":\"a@example.com\",\"role\":\"owner\",\"merchant_id\":\"x\"}").send();
        assertProblem(unknownProperty, 400, "bad_request");
        assertThat(unknownProperty.text()).contains("merchant_id");

        assertProblem(merchants.admin().post("/admin/merchants/no-such-merchant/users",
                "{\"email\":\"a@example.com\",\"role\":\"viewer\"}").send(), 404, "resource_not_found");

        assertThat(merchants.admin().post(path, "{\"email\":\"Same@example.com\",\"role\":\"viewer\"}").send().status())
                .isEqualTo(201);
        assertProblem(merchants.admin().post(path, "{\"email\":\"same@EXAMPLE.com\",\"role\":\"owner\"}").send(),
                409, "resource_already_exists");

        assertProblem(new Api(base(), null).post(path, "{\"email\":\"b@example.com\",\"role\":\"viewer\"}").send(),
                401, "unauthorized");
        assertProblem(merchant.test().post(path, "{\"email\":\"b@example.com\",\"role\":\"viewer\"}").send(),
                401, "unauthorized");
    }

    @Test
    void theSignInLinkSetsAPasswordOnceSignsTheUserInAndThenNoLongerWorks() {
        Merchant merchant = merchants.create();
        User user = user(merchant, "owner");
        DashboardClient browser = new DashboardClient(base(), "127.0.0.21");
        String path = URI.create(user.signInUrl()).getPath();

        var form = browser.get(path);
        assertThat(form.status()).isEqualTo(200);
        assertThat(form.body()).contains("Choose your password").contains(user.email());
        assertThat(form.header("Cache-Control")).contains("no-store");
        assertThat(form.header("Referrer-Policy")).isEqualTo("no-referrer");
        String anonymousSession = browser.sessionCookie().orElseThrow();

        var tooShort = browser.post(path, Map.of("password", "short", "confirmation", "short"));
        assertThat(tooShort.status()).isEqualTo(400);
        assertThat(tooShort.body()).contains("Use at least 12 characters.");
        var different = browser.post(path, Map.of("password", PASSWORD, "confirmation", PASSWORD + "!"));
        assertThat(different.status()).isEqualTo(400);
        assertThat(different.body()).contains("The two passwords are not the same.");

        var set = browser.post(path, Map.of("password", PASSWORD, "confirmation", PASSWORD));
        assertThat(set.status()).isEqualTo(302);
        assertThat(set.location()).endsWith("/dashboard/test");
        assertThat(browser.sessionCookie().orElseThrow()).as("a new session id at sign-in").isNotEqualTo(anonymousSession);
        var home = browser.get("/dashboard/test");
        assertThat(home.status()).isEqualTo(200);
        assertThat(home.body()).contains("<h1>Home</h1>").contains(merchant.name()).contains(user.email());

        DashboardClient someoneElse = new DashboardClient(base(), "127.0.0.21");
        var again = someoneElse.get(path);
        assertThat(again.status()).isEqualTo(404);
        assertThat(again.body()).contains("This sign-in link no longer works");
        assertThat(jdbc.sql("select password_hash from dashboard_users where id = ?").param(user.id())
                .query(String.class).single()).startsWith("{bcrypt}$2").doesNotContain(PASSWORD);
    }

    @Test
    void aSignInLinkPastItsDayNoLongerWorks() {
        User user = user(merchants.create(), "developer");
        jdbc.sql("update dashboard_sign_in_links set expires_at = ? where user_id = ?")
                .params(Instant.now().minusSeconds(1).atOffset(ZoneOffset.UTC), user.id()).update();
        var page = new DashboardClient(base(), "127.0.0.22").get(URI.create(user.signInUrl()).getPath());
        assertThat(page.status()).isEqualTo(404);
        assertThat(page.body()).contains("This sign-in link no longer works");
        assertThat(new DashboardClient(base()).get("/dashboard/link/not-a-token").status()).isEqualTo(404);
    }

    @Test
    void aLinkIsValidFor24Hours() {
        User user = user(merchants.create(), "viewer");
        var link = jdbc.sql("select created_at, expires_at from dashboard_sign_in_links where user_id = ?")
                .param(user.id()).query((rs, i) -> java.time.Duration.between(
                        rs.getTimestamp(1).toInstant(), rs.getTimestamp(2).toInstant())).single();
        assertThat(link).isEqualTo(java.time.Duration.ofHours(24));
    }

    @Test
    void signInTakesTheRightPasswordAndGivesOneGenericErrorForAWrongPasswordOrUnknownEmail() {
        User user = user(merchants.create(), "viewer");
        new DashboardClient(base(), "127.0.0.23").acceptLink(user.signInUrl(), PASSWORD);

        var wrong = new DashboardClient(base(), "127.0.0.23").signIn(user.email(), PASSWORD + "x");
        var unknown = new DashboardClient(base(), "127.0.0.23").signIn("nobody-" + UUID.randomUUID() + "@example.com", PASSWORD);
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(wrong.body()).contains(SignInController.GENERIC_ERROR);
        assertThat(unknown.body()).contains(SignInController.GENERIC_ERROR);

        DashboardClient browser = new DashboardClient(base(), "127.0.0.23");
        browser.get("/dashboard/sign-in");
        String before = browser.sessionCookie().orElseThrow();
        var signedIn = browser.post("/dashboard/sign-in", Map.of("email", user.email().toUpperCase(), "password", PASSWORD));
        assertThat(signedIn.status()).isEqualTo(302);
        assertThat(signedIn.location()).endsWith("/dashboard/test");
        assertThat(browser.sessionCookie().orElseThrow()).isNotEqualTo(before);
        assertThat(browser.get("/dashboard/live").body()).contains("<h1>Home</h1>");
    }

    @Test
    void signInsFailedAndSucceededAreInTheAuditLogWithAddressAndUserAgent() {
        User user = user(merchants.create(), "developer");
        new DashboardClient(base(), "127.0.0.24").acceptLink(user.signInUrl(), PASSWORD);
        DashboardClient browser = new DashboardClient(base(), "127.0.0.24");
        browser.get("/dashboard/sign-in");
        browser.post("/dashboard/sign-in", Map.of("email", user.email(), "password", "not the password at all"));
        browser.post("/dashboard/sign-in", Map.of("email", user.email(), "password", PASSWORD));

        List<Map<String, Object>> rows = jdbc.sql("select action, user_id, actor, client_address, user_agent "
                + "from dashboard_audit_log where user_id = ? order by id").param(user.id()).query().listOfRows();
        assertThat(rows).extracting(r -> r.get("action"))
                .containsExactly("password.set", "sign_in.succeeded", "sign_in.failed", "sign_in.succeeded");
        assertThat(rows).allSatisfy(r -> {
            assertThat(r.get("client_address")).isEqualTo("127.0.0.24");
            assertThat((String) r.get("user_agent")).startsWith("Java-http-client");
        });
        // Append-only: the database refuses to rewrite or remove history.
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> jdbc.sql(
                "update dashboard_audit_log set action = 'x' where user_id = ?").param(user.id()).update())
                .hasMessageContaining("append-only");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> jdbc.sql(
                "delete from dashboard_audit_log where user_id = ?").param(user.id()).update())
                .hasMessageContaining("append-only");
    }

    @Test
    void tenFailedSignInsOfAnAccountRefuseEvenTheRightPassword() {
        User user = user(merchants.create(), "owner");
        new DashboardClient(base(), "127.0.0.25").acceptLink(user.signInUrl(), PASSWORD);
        for (int i = 0; i < 10; i++) {
            // From several addresses, so that only the account's limit can be the one reached.
            var failed = new DashboardClient(base(), "127.0.0." + (30 + i)).signIn(user.email(), "wrong password " + i);
            assertThat(failed.status()).isEqualTo(401);
        }
        var refused = new DashboardClient(base(), "127.0.0.26").signIn(user.email(), PASSWORD);
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.body()).contains(SignInController.THROTTLED).doesNotContain("<h1>Home</h1>");
        assertThat(refused.location()).isNull();
        assertThat(jdbc.sql("select count(*) from dashboard_audit_log where user_id = ? and action = 'sign_in.throttled'")
                .param(user.id()).query(Long.class).single()).isEqualTo(1);
    }

    @Test
    void twentyFailedSignInsFromOneAddressRefuseEvenTheRightPasswordThereButNotElsewhere() {
        User user = user(merchants.create(), "viewer");
        new DashboardClient(base(), "127.0.0.27").acceptLink(user.signInUrl(), PASSWORD);
        DashboardClient attacker = new DashboardClient(base(), "127.0.0.28");
        attacker.get("/dashboard/sign-in");
        for (int i = 0; i < 20; i++) {
            var failed = attacker.post("/dashboard/sign-in",
                    Map.of("email", "guess-" + i + "@example.com", "password", "wrong password " + i));
            assertThat(failed.status()).isEqualTo(401);
        }
        var refused = new DashboardClient(base(), "127.0.0.28").signIn(user.email(), PASSWORD);
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.body()).contains(SignInController.THROTTLED);

        assertThat(new DashboardClient(base(), "127.0.0.29").signIn(user.email(), PASSWORD).status()).isEqualTo(302);
    }

    @Test
    void theSessionCookieIsHttpOnlySameSiteLaxForTheDashboardOnlyAndNotSecureOnLocalhost() {
        User user = user(merchants.create(), "viewer");
        DashboardClient browser = new DashboardClient(base(), "127.0.0.41");
        String path = URI.create(user.signInUrl()).getPath();
        browser.get(path);
        var set = browser.post(path, Map.of("password", PASSWORD, "confirmation", PASSWORD));
        String cookie = set.headers("Set-Cookie").stream().filter(c -> c.startsWith("tender_dashboard="))
                .findFirst().orElseThrow();
        assertThat(cookie).contains("HttpOnly").contains("SameSite=Lax").contains("Path=/dashboard")
                .doesNotContain("Secure");
        assertThat(DashboardSecurity.secureCookie("https://pay.example.com")).isTrue();
        assertThat(DashboardSecurity.secureCookie("http://localhost:8080")).isFalse();
    }

    @Test
    void signingOutIsAPostAndEndsTheSession() {
        User user = user(merchants.create(), "viewer");
        DashboardClient browser = new DashboardClient(base(), "127.0.0.42");
        browser.acceptLink(user.signInUrl(), PASSWORD);
        browser.get("/dashboard/test");
        assertThat(browser.get("/dashboard/sign-out").status()).as("GET does not sign out").isNotEqualTo(302);
        assertThat(browser.get("/dashboard/test").status()).isEqualTo(200);

        var out = browser.post("/dashboard/sign-out", Map.of());
        assertThat(out.status()).isEqualTo(302);
        assertThat(out.location()).contains("/dashboard/sign-in?signed-out");
        var after = browser.get("/dashboard/test");
        assertThat(after.status()).isEqualTo(302);
        assertThat(after.location()).endsWith("/dashboard/sign-in");
    }
}
