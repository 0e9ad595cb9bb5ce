package io.tender.dashboard;

import com.eatthepath.otp.TimeBasedOneTimePasswordGenerator;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.apache.commons.codec.binary.Base32;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.crypto.spec.SecretKeySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's second factor and re-authentication (decisions §11), over HTTP: turning TOTP on with a QR code and
 * the secret as text, confirmed by a code computed here as an authenticator app would; ten recovery codes shown once
 * and stored hashed; signing in then asks for a code after the password, a code works once and a recovery code once;
 * turning it off needs the password or a code re-entered, and that confirmation lasts five minutes; wrong codes are
 * throttled like passwords; every change is in the audit log.
 */
class DashboardSecondFactorIT extends ApiIntegrationTest {

    private static final Pattern SECRET = Pattern.compile("id=\"secret\">([A-Z2-7 ]+)<");
    private static final Pattern RECOVERY = Pattern.compile("<li>([a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4})</li>");

    private Merchant merchant;
    private String email;
    private DashboardClient browser;

    @BeforeEach
    void anOwnerSignedIn() {
        merchant = merchants.create();
        email = "owner-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        var created = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"" + email + "\",\"role\":\"owner\"}").send();
        browser = new DashboardClient(base(), "127.0.0.81");
        assertThat(browser.acceptLink(created.json().get("sign_in_url").stringValue(), DashboardSignInIT.PASSWORD)
                .status()).isEqualTo(302);
    }

    /** The code an authenticator app shows for {@code secret} at {@code at}. */
    static String code(String secret, Instant at) {
        try {
            var totp = new TimeBasedOneTimePasswordGenerator();
            return totp.generateOneTimePasswordString(
                    new SecretKeySpec(new Base32().decode(secret.replace(" ", "")), totp.getAlgorithm()), at);
        } catch (java.security.InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Turns the second factor on through the pages; answers the secret and the recovery codes shown. Starting asks
     * for the password unless this session confirmed it within the window ({@code confirmedRecently}).
     */
    private Enrolled enrol(DashboardClient client, boolean confirmedRecently) {
        var account = client.get("/dashboard/test/account");
        assertThat(account.body()).contains("Off.").contains("Turn on two-step sign-in");
        var started = client.post("/dashboard/test/account/second-factor/start", Map.of());
        if (!confirmedRecently) {
            assertThat(started.status()).isEqualTo(200);
            assertThat(started.body()).contains("Confirm it is you").contains("Turning on two-step sign-in");
            started = client.post("/dashboard/test/account/second-factor/start",
                    Map.of("reauth_password", DashboardSignInIT.PASSWORD));
        }
        assertThat(started.status()).isEqualTo(302);
        var setup = client.get("/dashboard/test/account/second-factor");
        assertThat(setup.status()).isEqualTo(200);
        assertThat(setup.body()).contains("<img class=\"qr\" src=\"data:image/svg+xml;base64,");
        Matcher secret = SECRET.matcher(setup.body());
        assertThat(secret.find()).as("the secret as text").isTrue();
        String shown = secret.group(1).replace(" ", "");
        assertThat(shown).hasSize(32);

        var done = client.post("/dashboard/test/account/second-factor/enable", Map.of("code", code(shown, Instant.now())));
        assertThat(done.status()).isEqualTo(200);
        assertThat(done.body()).contains("Save your recovery codes").contains("only time they are shown");
        List<String> codes = new ArrayList<>();
        Matcher m = RECOVERY.matcher(done.body());
        while (m.find()) {
            codes.add(m.group(1));
        }
        return new Enrolled(shown, codes);
    }

    record Enrolled(String secret, List<String> recoveryCodes) {
    }

    /** Decisions §13: a stolen session must not turn it on with the thief's app and lock the owner out. */
    @Test
    void turningItOnAsksForThePasswordFirstAndMakesNoSecretBefore() {
        browser.get("/dashboard/test/account");
        var asked = browser.post("/dashboard/test/account/second-factor/start", Map.of());
        assertThat(asked.status()).isEqualTo(200);
        assertThat(asked.body()).contains("Confirm it is you").contains("Turning on two-step sign-in")
                .doesNotContain("id=\"secret\"");
        var setup = browser.get("/dashboard/test/account/second-factor");
        assertThat(setup.status()).as("no secret was made").isEqualTo(302);
        assertThat(setup.location()).endsWith("/dashboard/test/account");
        assertThat(browser.post("/dashboard/test/account/second-factor/enable", Map.of("code", "123456"))
                .status()).as("nothing to turn on").isEqualTo(302);

        var wrong = browser.post("/dashboard/test/account/second-factor/start",
                Map.of("reauth_password", "not the password at all"));
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(browser.get("/dashboard/test/account/second-factor").status()).isEqualTo(302);

        var started = browser.post("/dashboard/test/account/second-factor/start",
                Map.of("reauth_password", DashboardSignInIT.PASSWORD));
        assertThat(started.status()).isEqualTo(302);
        assertThat(started.location()).endsWith("/dashboard/test/account/second-factor");
        assertThat(SECRET.matcher(browser.get("/dashboard/test/account/second-factor").body()).find()).isTrue();
        assertThat(audited("reauthentication.failed")).isEqualTo(1);
        assertThat(audited("reauthentication.succeeded")).isEqualTo(1);
        assertThat(jdbc.sql("select totp_enabled_at is null from dashboard_users where lower(email) = lower(?)")
                .param(email).query(Boolean.class).single()).as("on only once a code confirms it").isTrue();
    }

    @Test
    void turningItOnShowsTheSecretAsAQrCodeAndAsTextNeedsAFirstCodeAndGivesTenRecoveryCodesOnce() {
        browser.get("/dashboard/test/account");
        browser.post("/dashboard/test/account/second-factor/start",
                Map.of("reauth_password", DashboardSignInIT.PASSWORD));
        var setup = browser.get("/dashboard/test/account/second-factor");
        Matcher secret = SECRET.matcher(setup.body());
        assertThat(secret.find()).isTrue();
        var wrong = browser.post("/dashboard/test/account/second-factor/enable", Map.of("code", "000000"));
        assertThat(wrong.status()).isEqualTo(400);
        assertThat(wrong.body()).contains("That code does not match");
        assertThat(jdbc.sql("select totp_enabled_at is null from dashboard_users where lower(email) = lower(?)")
                .param(email).query(Boolean.class).single()).as("nothing turned on by a wrong code").isTrue();

        String shown = secret.group(1).replace(" ", "");
        var done = browser.post("/dashboard/test/account/second-factor/enable", Map.of("code", code(shown, Instant.now())));
        List<String> codes = new ArrayList<>();
        Matcher m = RECOVERY.matcher(done.body());
        while (m.find()) {
            codes.add(m.group(1));
        }
        assertThat(codes).hasSize(10).doesNotHaveDuplicates();
        assertThat(browser.get("/dashboard/test/account").body()).contains("On.").contains("10 of 10 recovery codes left")
                .doesNotContain(codes.getFirst());
        // Stored sealed and hashed: neither the secret nor a recovery code is in the database as shown.
        var row = jdbc.sql("select encode(totp_secret_sealed, 'escape') from dashboard_users where lower(email) = lower(?)")
                .param(email).query(String.class).single();
        assertThat(row).doesNotContain(shown);
        assertThat(jdbc.sql("select count(*) from dashboard_recovery_codes c join dashboard_users u on u.id = c.user_id "
                + "where lower(u.email) = lower(?)").param(email).query(Integer.class).single()).isEqualTo(10);
        assertThat(jdbc.sql("select count(*) from dashboard_recovery_codes where encode(code_hash, 'escape') like ?")
                .param("%" + codes.getFirst().replace("-", "") + "%").query(Integer.class).single()).isZero();
        assertThat(audited("second_factor.enabled")).isEqualTo(1);
    }

    @Test
    void signingInThenAsksForACodeAfterThePasswordAndEachCodeWorksOnce() {
        Enrolled enrolled = enrol(browser, false);

        DashboardClient phone = new DashboardClient(base(), "127.0.0.82");
        var password = phone.signIn(email, DashboardSignInIT.PASSWORD);
        assertThat(password.status()).isEqualTo(302);
        assertThat(password.location()).endsWith("/dashboard/sign-in/code");
        assertThat(phone.get("/dashboard/test").status()).as("not signed in by the password alone").isEqualTo(302);
        assertThat(phone.get("/dashboard/test").location()).endsWith("/dashboard/sign-in");

        assertThat(phone.get("/dashboard/sign-in/code").body()).contains("Enter your code");
        var wrong = phone.post("/dashboard/sign-in/code", Map.of("code", "123456"));
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.body()).contains("That code does not match");

        // The code of the step the enrolment used is spent; the next step's is within the accepted window.
        String next = code(enrolled.secret(), Instant.now().plusSeconds(30));
        var signedIn = phone.post("/dashboard/sign-in/code", Map.of("code", next));
        assertThat(signedIn.status()).isEqualTo(302);
        assertThat(signedIn.location()).endsWith("/dashboard/test");
        assertThat(phone.get("/dashboard/test").status()).isEqualTo(200);

        // The same code again, on another sign-in, is refused: a code seen over a shoulder cannot be replayed.
        DashboardClient thief = new DashboardClient(base(), "127.0.0.83");
        thief.signIn(email, DashboardSignInIT.PASSWORD);
        thief.get("/dashboard/sign-in/code");
        assertThat(thief.post("/dashboard/sign-in/code", Map.of("code", next)).status()).isEqualTo(401);

        // A recovery code signs in once, with or without its dashes and in any case.
        String recovery = enrolled.recoveryCodes().get(3);
        DashboardClient lostPhone = new DashboardClient(base(), "127.0.0.84");
        lostPhone.signIn(email, DashboardSignInIT.PASSWORD);
        lostPhone.get("/dashboard/sign-in/code");
        assertThat(lostPhone.post("/dashboard/sign-in/code", Map.of("code", recovery.replace("-", "").toUpperCase()))
                .status()).isEqualTo(302);
        assertThat(lostPhone.get("/dashboard/test/account").body()).contains("9 of 10 recovery codes left");
        DashboardClient again = new DashboardClient(base(), "127.0.0.85");
        again.signIn(email, DashboardSignInIT.PASSWORD);
        again.get("/dashboard/sign-in/code");
        assertThat(again.post("/dashboard/sign-in/code", Map.of("code", recovery)).status()).isEqualTo(401);

        assertThat(jdbc.sql("select after_state ->> 'with' from dashboard_audit_log where actor = ? "
                        + "and action = 'sign_in.succeeded' and after_state is not null order by id")
                .param(email).query(String.class).list()).contains("code", "recovery_code");
        assertThat(audited("sign_in.code_failed")).isEqualTo(3);
    }

    @Test
    void turningItOffNeedsThePasswordOrACodeAgainAndThatLastsFiveMinutes() {
        Enrolled enrolled = enrol(browser, false);
        // Another session, which has confirmed nothing yet: signed in with the password and the next code.
        DashboardClient laptop = new DashboardClient(base(), "127.0.0.88");
        laptop.signIn(email, DashboardSignInIT.PASSWORD);
        laptop.get("/dashboard/sign-in/code");
        assertThat(laptop.post("/dashboard/sign-in/code",
                Map.of("code", code(enrolled.secret(), Instant.now().plusSeconds(30)))).status()).isEqualTo(302);
        laptop.get("/dashboard/test/account");

        var asked = laptop.post("/dashboard/test/account/second-factor/disable", Map.of());
        assertThat(asked.status()).isEqualTo(200);
        assertThat(asked.body()).contains("Confirm it is you").contains("Turning off two-step sign-in")
                .contains("or a code from your authenticator app")
                .contains("You will not be asked again for 5 minutes.");
        assertThat(laptop.get("/dashboard/test/account").body()).as("still on").contains("On.");

        var wrong = laptop.post("/dashboard/test/account/second-factor/disable",
                Map.of("reauth_password", "not the password at all"));
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.body()).contains(Reauthentication.WRONG);
        assertThat(laptop.get("/dashboard/test/account").body()).contains("On.");

        var off = laptop.post("/dashboard/test/account/second-factor/disable",
                Map.of("reauth_code", enrolled.recoveryCodes().getFirst()));
        assertThat(off.status()).isEqualTo(303);
        assertThat(off.location()).endsWith("/dashboard/test/account?done=off");
        assertThat(laptop.get(off.location().replaceFirst("^https?://[^/]+", "")).body())
                .contains("Two-step sign-in is off").contains("Off.");
        assertThat(jdbc.sql("select count(*) from dashboard_recovery_codes c join dashboard_users u on u.id = c.user_id "
                + "where lower(u.email) = lower(?)").param(email).query(Integer.class).single()).isZero();

        // Within five minutes of that confirmation, turning it on and off again asks nothing more.
        enrol(laptop, true);
        assertThat(laptop.post("/dashboard/test/account/second-factor/disable", Map.of()).status()).isEqualTo(303);
        assertThat(audited("second_factor.disabled")).isEqualTo(2);
        assertThat(audited("reauthentication.failed")).isEqualTo(1);
        assertThat(audited("reauthentication.succeeded")).as("turning on in the first session, off in the second")
                .isEqualTo(2);

        // Signing in is the password alone again.
        DashboardClient other = new DashboardClient(base(), "127.0.0.86");
        assertThat(other.signIn(email, DashboardSignInIT.PASSWORD).location()).endsWith("/dashboard/test");
    }

    @Test
    void tenWrongCodesRefuseEvenTheRightOne() {
        Enrolled enrolled = enrol(browser, false);
        DashboardClient guesser = new DashboardClient(base(), "127.0.0.87");
        guesser.signIn(email, DashboardSignInIT.PASSWORD);
        guesser.get("/dashboard/sign-in/code");
        for (int i = 0; i < 10; i++) {
            assertThat(guesser.post("/dashboard/sign-in/code", Map.of("code", String.format("%06d", i))).status())
                    .isEqualTo(401);
        }
        var refused = guesser.post("/dashboard/sign-in/code",
                Map.of("code", code(enrolled.secret(), Instant.now().plusSeconds(30))));
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.body()).contains(SignInController.THROTTLED);
        assertThat(guesser.get("/dashboard/test").status()).isEqualTo(302);
    }

    private long audited(String action) {
        return jdbc.sql("select count(*) from dashboard_audit_log where actor = ? and action = ?")
                .params(email, action).query(Long.class).single();
    }
}
