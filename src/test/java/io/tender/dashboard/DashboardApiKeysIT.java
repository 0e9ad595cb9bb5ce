package io.tender.dashboard;

import io.tender.support.Api;
import io.tender.support.IntegrationTestSupport;
import io.tender.support.Merchants.Merchant;
import io.tender.support.MovableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Developers → API keys on the dashboard (decisions §11), over real HTTP, on a clock the test moves (it decides when a
 * rolled key expires and how long a password confirmation lasts): a key's secret is on the answer that made it and
 * nowhere after; it authenticates the API; a rolled key works during its overlap and answers 401 after it; a revoked
 * key answers 401; a viewer reads and changes nothing; live keys are the owner's, who confirms the password first;
 * another merchant's or mode's key is a 404 page; every change is in the audit log.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
        "management.server.port=0",
        "tender.bootstrap-keys=",
        // Refused keys are this test's subject; the failed-authentication limit is RateLimitsIT's.
        "tender.rate-limits.failed-authentications.per-second=1000000",
        "tender.rate-limits.failed-authentications.burst=1000000",
        // The clock moves an hour while a member stays signed in; the idle limit is DashboardSessionTimeoutsIT's.
        "tender.dashboard.idle-timeout=PT2H"})
@Import(MovableClock.AsTheServicesClock.class)
class DashboardApiKeysIT extends IntegrationTestSupport {

    private static final Path DATA_DIR = temporaryDataDirectory("dashboard-keys");
    private static final Pattern FORM_KEY = Pattern.compile("name=\"idempotency_key\" value=\"([0-9a-f-]{36})\"");
    private static final Pattern SECRET = Pattern.compile("id=\"new-key\"[^>]*>((?:sk|pk)_(?:test|live)_[0-9a-f]{40})</textarea>");

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
    }

    @Autowired
    private MovableClock clock;

    private Merchant merchant;

    @BeforeEach
    void merchantOnTheRealTime() {
        clock.set(Instant.now());
        merchant = merchants.create();
    }

    private DashboardClient member(String role, String address) {
        return DashboardClient.member(base(), merchants, merchant, role, address);
    }

    private static String formKey(DashboardClient.Page page) {
        Matcher m = FORM_KEY.matcher(page.body());
        assertThat(m.find()).as("a form with its key").isTrue();
        return m.group(1);
    }

    private static String secret(DashboardClient.Page page) {
        Matcher m = SECRET.matcher(page.body());
        assertThat(m.find()).as("the new key's secret on the page").isTrue();
        return m.group(1);
    }

    /** A key made on the list's form of {@code mode}: the answer page (its secret on it). */
    private static DashboardClient.Page create(DashboardClient who, String mode, String kind) {
        String key = formKey(who.get("/dashboard/" + mode + "/developers/keys"));
        return who.post("/dashboard/" + mode + "/developers/keys", Map.of("kind", kind, "idempotency_key", key));
    }

    private String keyId(String secret) {
        String last4 = secret.substring(secret.length() - 4);
        return jdbc.sql("select id from api_keys where merchant_id = ? and display like ?")
                .params(merchant.id(), "%…" + last4).query(String.class).single();
    }

    private int status(String secret) {
        return new Api(base(), secret).get("/collect/payments").send().status();
    }

    private long keys(String kind) {
        return jdbc.sql("select count(*) from api_keys where merchant_id = ? and kind = ?").params(merchant.id(), kind)
                .query(Long.class).single();
    }

    private JsonNode audited(String action, String target) {
        return jdbc.sql("select json_build_object('mode', mode, 'actor', actor, 'before', before_state, 'after', "
                        + "after_state)::text from dashboard_audit_log where action = ? and target = ?")
                .params(action, target).query(String.class).list().stream().map(Api.JSON::readTree).findFirst()
                .orElse(null);
    }

    @Test
    void aDevelopersNewTestKeyIsShownOnceAuthenticatesTheApiAndIsListedByItsPrefixAndLastFourOnly() throws Exception {
        DashboardClient developer = member("developer", "127.0.0.81");
        assertThat(developer.get("/dashboard/test/developers").location()).isEqualTo("/dashboard/test/developers/keys");
        DashboardClient.Page list = developer.get("/dashboard/test/developers/keys");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.body()).contains("aria-current=\"page\">API keys<").contains("Create a key");

        String key = formKey(list);
        DashboardClient.Page shown = developer.post("/dashboard/test/developers/keys",
                Map.of("kind", "secret", "idempotency_key", key));
        assertThat(shown.status()).isEqualTo(200);
        assertThat(shown.header("Cache-Control")).contains("no-store");
        assertThat(shown.body()).contains("Copy it now.").contains("This is the only time it is shown");
        String secret = secret(shown);
        assertThat(secret).startsWith("sk_test_");
        assertThat(status(secret)).as("the new key authenticates the API").isEqualTo(200);

        String id = keyId(secret);
        String display = "sk_test_…" + secret.substring(secret.length() - 4);
        DashboardClient.Page after = developer.get("/dashboard/test/developers/keys");
        assertThat(after.body()).contains(display).doesNotContain(secret).doesNotContain(secret.substring(8, 30));
        assertThat(developer.get("/dashboard/test/developers/keys/" + id + "/revoke").body())
                .as("nor any other page").doesNotContain(secret.substring(8, 30));

        // The same form sent again (a double click, a reload) makes no second key and shows no secret.
        long before = keys("sk_test");
        DashboardClient.Page again = developer.post("/dashboard/test/developers/keys",
                Map.of("kind", "secret", "idempotency_key", key));
        assertThat(again.status()).isEqualTo(303);
        assertThat(again.location()).endsWith("/developers/keys?done=already");
        assertThat(keys("sk_test")).isEqualTo(before);

        // Its use shows as "last used" (written off the request's thread, so within a moment).
        Instant deadline = Instant.now().plusSeconds(5);
        while (!jdbc.sql("select last_used_at is not null from api_keys where id = ?").param(id)
                .query(Boolean.class).single() && Instant.now().isBefore(deadline)) {
            Thread.sleep(50);
        }
        String row = row(developer.get("/dashboard/test/developers/keys").body(), display);
        assertThat(row).contains("Active").doesNotContain("Never");

        JsonNode created = audited("api_key.created", id);
        assertThat(created).as("audited").isNotNull();
        assertThat(created.get("mode").stringValue()).isEqualTo("test");
        assertThat(created.get("after").get("display").stringValue()).isEqualTo(display);
        assertThat(created.toString()).doesNotContain(secret.substring(8, 30));

        DashboardClient.Page publishable = create(developer, "test", "publishable");
        assertThat(secret(publishable)).startsWith("pk_test_");
        assertThat(publishable.body()).contains("Your new publishable key");
    }

    /** The table row that shows {@code display}. */
    private static String row(String page, String display) {
        int at = page.indexOf(display);
        assertThat(at).as(display + " listed").isPositive();
        return page.substring(page.lastIndexOf("<tr", at), page.indexOf("</tr>", at));
    }

    @Test
    void aRolledKeyWorksWithTheNewOneDuringTheOverlapAndAnswers401AfterIt() {
        DashboardClient developer = member("developer", "127.0.0.82");
        String old = secret(create(developer, "test", "secret"));
        String oldId = keyId(old);

        DashboardClient.Page form = developer.get("/dashboard/test/developers/keys/" + oldId + "/roll");
        assertThat(form.status()).isEqualTo(200);
        assertThat(form.body()).contains("The old key keeps working for").contains("24 hours");
        DashboardClient.Page rolled = developer.post("/dashboard/test/developers/keys/" + oldId + "/roll",
                Map.of("overlap", "1h", "idempotency_key", formKey(form)));
        assertThat(rolled.status()).isEqualTo(200);
        String fresh = secret(rolled);
        assertThat(fresh).isNotEqualTo(old).startsWith("sk_test_");
        assertThat(rolled.body()).contains("works until");

        assertThat(status(old)).as("the old key during the overlap").isEqualTo(200);
        assertThat(status(fresh)).as("the new key").isEqualTo(200);
        assertThat(developer.get("/dashboard/test/developers/keys").body()).contains("Rolled, works until")
                .doesNotContain(fresh);

        clock.advance(Duration.ofMinutes(59));
        assertThat(status(old)).as("a minute before the overlap ends").isEqualTo(200);
        clock.advance(Duration.ofMinutes(1));
        assertThat(status(old)).as("the old key after the overlap, like a revoked one").isEqualTo(401);
        assertThat(status(fresh)).isEqualTo(200);
        String list = developer.get("/dashboard/test/developers/keys").body();
        assertThat(list).contains("Revoked and expired").contains("(rolled)");

        JsonNode audit = audited("api_key.rolled", oldId);
        assertThat(audit.get("mode").stringValue()).isEqualTo("test");
        assertThat(audit.get("before").get("expires_at").isNull()).isTrue();
        assertThat(audit.get("after").get("key_id").stringValue()).isEqualTo(oldId);
        assertThat(audit.get("after").get("new_key_id").stringValue()).isEqualTo(keyId(fresh));
        assertThat(audit.get("after").get("expires_at").stringValue()).isNotBlank();

        // A key is rolled once; "now" refuses the old key at once (for a leaked one).
        assertThat(developer.post("/dashboard/test/developers/keys/" + oldId + "/roll",
                Map.of("overlap", "1h", "idempotency_key", java.util.UUID.randomUUID().toString())).status())
                .isEqualTo(409);
        String freshId = keyId(fresh);
        DashboardClient.Page now = developer.post("/dashboard/test/developers/keys/" + freshId + "/roll",
                Map.of("overlap", "now", "idempotency_key", formKey(developer.get(
                        "/dashboard/test/developers/keys/" + freshId + "/roll"))));
        assertThat(now.body()).contains("refused from now on");
        assertThat(status(fresh)).isEqualTo(401);
        assertThat(status(secret(now))).isEqualTo(200);
        assertThat(developer.post("/dashboard/test/developers/keys/" + freshId + "/roll",
                Map.of("overlap", "forever", "idempotency_key", java.util.UUID.randomUUID().toString())).status())
                .as("only the offered overlaps").isEqualTo(400);
    }

    @Test
    void aKeyIsRevokedAfterAConfirmationAndThenAnswers401() {
        DashboardClient developer = member("developer", "127.0.0.83");
        String secret = secret(create(developer, "test", "secret"));
        String id = keyId(secret);

        DashboardClient.Page confirm = developer.get("/dashboard/test/developers/keys/" + id + "/revoke");
        assertThat(confirm.status()).isEqualTo(200);
        assertThat(confirm.body()).contains("Revoke <span class=\"mono\">sk_test_…").contains("cannot be undone")
                .contains("name=\"confirmed\" value=\"yes\"");
        DashboardClient.Page unconfirmed = developer.post("/dashboard/test/developers/keys/" + id + "/revoke", Map.of());
        assertThat(unconfirmed.status()).isEqualTo(200);
        assertThat(unconfirmed.body()).contains("Revoke key");
        assertThat(status(secret)).as("nothing before the confirmation").isEqualTo(200);

        DashboardClient.Page done = developer.post("/dashboard/test/developers/keys/" + id + "/revoke",
                Map.of("confirmed", "yes"));
        assertThat(done.status()).isEqualTo(303);
        assertThat(done.location()).isEqualTo("/dashboard/test/developers/keys?done=revoked");
        assertThat(status(secret)).isEqualTo(401);
        String list = developer.get("/dashboard/test/developers/keys?done=revoked").body();
        assertThat(list).contains("The key is revoked.");
        assertThat(row(list, "sk_test_…" + secret.substring(secret.length() - 4))).contains("Revoked ");

        JsonNode audit = audited("api_key.revoked", id);
        assertThat(audit.get("mode").stringValue()).isEqualTo("test");
        assertThat(audit.get("before").get("revoked_at").isNull()).isTrue();
        assertThat(audit.get("after").get("revoked_at").stringValue()).isNotBlank();
        JsonNode admin = null;
        for (JsonNode k : merchants.admin().get("/admin/merchants/" + merchant.name() + "/keys").send().json()
                .get("data")) {
            admin = k.get("id").stringValue().equals(id) ? k : admin;
        }
        assertThat(admin.get("revoked_at").stringValue()).as("the admin API sees the same revocation")
                .isEqualTo(audit.get("after").get("revoked_at").stringValue());
    }

    @Test
    void aViewerReadsTheListButSeesNoSecretNoFormAndEveryPostIs403() {
        DashboardClient developer = member("developer", "127.0.0.84");
        String secret = secret(create(developer, "test", "secret"));
        String id = keyId(secret);
        DashboardClient viewer = member("viewer", "127.0.0.84");

        DashboardClient.Page list = viewer.get("/dashboard/test/developers/keys");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.body()).contains("sk_test_…" + secret.substring(secret.length() - 4))
                .contains("Your role can read the keys but not change them.").doesNotContain("Create key")
                .doesNotContain("/roll\"").doesNotContain(secret.substring(8, 30));
        assertThat(viewer.get("/dashboard/test/developers/keys/" + id + "/revoke").body())
                .doesNotContain("Revoke key").contains("Your role can read the keys");

        long before = keys("sk_test");
        assertThat(viewer.post("/dashboard/test/developers/keys", Map.of("kind", "secret",
                "idempotency_key", java.util.UUID.randomUUID().toString())).status()).isEqualTo(403);
        assertThat(viewer.post("/dashboard/test/developers/keys/" + id + "/roll", Map.of("overlap", "now",
                "idempotency_key", java.util.UUID.randomUUID().toString())).status()).isEqualTo(403);
        assertThat(viewer.post("/dashboard/test/developers/keys/" + id + "/revoke", Map.of("confirmed", "yes"))
                .status()).isEqualTo(403);
        assertThat(keys("sk_test")).isEqualTo(before);
        assertThat(status(secret)).isEqualTo(200);
    }

    @Test
    void liveKeysAreTheOwnersWhoConfirmTheirPasswordFirstAndADeveloperIsRefusedWithoutBeingAsked() {
        DashboardClient developer = member("developer", "127.0.0.85");
        assertThat(developer.get("/dashboard/live/developers/keys").body())
                .contains("Only an owner can create, roll or revoke live keys.").doesNotContain("Create key");
        long liveKeys = keys("sk_live");
        DashboardClient.Page refused = developer.post("/dashboard/live/developers/keys",
                Map.of("kind", "secret", "idempotency_key", java.util.UUID.randomUUID().toString()));
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.body()).doesNotContain("Confirm it is you").doesNotContain("reauth_password");
        String liveId = jdbc.sql("select id from api_keys where merchant_id = ? and kind = 'sk_live'")
                .param(merchant.id()).query(String.class).list().getFirst();
        assertThat(developer.post("/dashboard/live/developers/keys/" + liveId + "/roll", Map.of("overlap", "1h",
                "idempotency_key", java.util.UUID.randomUUID().toString())).status()).isEqualTo(403);
        assertThat(developer.post("/dashboard/live/developers/keys/" + liveId + "/revoke",
                Map.of("confirmed", "yes")).status()).isEqualTo(403);

        DashboardClient owner = member("owner", "127.0.0.85");
        String key = formKey(owner.get("/dashboard/live/developers/keys"));
        DashboardClient.Page asked = owner.post("/dashboard/live/developers/keys",
                Map.of("kind", "secret", "idempotency_key", key));
        assertThat(asked.status()).isEqualTo(200);
        assertThat(asked.body()).contains("Confirm it is you").contains("<span>Creating a live API key</span> needs your password")
                .contains("name=\"kind\" value=\"secret\"");
        assertThat(keys("sk_live")).as("nothing before the password").isEqualTo(liveKeys);

        DashboardClient.Page wrong = owner.post("/dashboard/live/developers/keys",
                Map.of("kind", "secret", "idempotency_key", key, "reauth_password", "not my password"));
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.body()).contains(Reauthentication.WRONG);
        assertThat(keys("sk_live")).isEqualTo(liveKeys);

        DashboardClient.Page made = owner.post("/dashboard/live/developers/keys",
                Map.of("kind", "secret", "idempotency_key", key, "reauth_password", DashboardSignInIT.PASSWORD));
        assertThat(made.status()).isEqualTo(200);
        String live = secret(made);
        assertThat(live).startsWith("sk_live_");
        assertThat(keys("sk_live")).isEqualTo(liveKeys + 1);
        assertThat(audited("api_key.created", keyId(live)).get("mode").stringValue()).isEqualTo("live");
        assertThat(new Api(base(), live).get("/collect/payments").send().status()).isEqualTo(200);

        // Within 5 minutes the next one is not asked again; after them it is.
        clock.advance(Duration.ofMinutes(4));
        DashboardClient.Page second = create(owner, "live", "publishable");
        assertThat(second.body()).doesNotContain("Confirm it is you");
        assertThat(secret(second)).startsWith("pk_live_");
        clock.advance(Duration.ofMinutes(2));
        String liveRollForm = formKey(owner.get("/dashboard/live/developers/keys/" + keyId(live) + "/roll"));
        DashboardClient.Page rollAsked = owner.post("/dashboard/live/developers/keys/" + keyId(live) + "/roll",
                Map.of("overlap", "1h", "idempotency_key", liveRollForm));
        assertThat(rollAsked.body()).contains("<span>Rolling a live API key</span> needs your password");
        DashboardClient.Page liveRolled = owner.post("/dashboard/live/developers/keys/" + keyId(live) + "/roll",
                Map.of("overlap", "1h", "idempotency_key", liveRollForm, "reauth_password", DashboardSignInIT.PASSWORD));
        assertThat(secret(liveRolled)).startsWith("sk_live_");
        assertThat(audited("api_key.rolled", keyId(live)).get("mode").stringValue()).isEqualTo("live");

        // Revoking a live key takes the owner's click, not a password: it only takes access away.
        DashboardClient.Page revoked = owner.post("/dashboard/live/developers/keys/" + keyId(live) + "/revoke",
                Map.of("confirmed", "yes"));
        assertThat(revoked.status()).isEqualTo(303);
        assertThat(new Api(base(), live).get("/collect/payments").send().status()).isEqualTo(401);
    }

    @Test
    void anotherMerchantsOrModesKeyIsANotFoundPageAndStaysUntouched() {
        Merchant theirs = merchants.create();
        String theirKeyId = theirs.testKeyId();
        DashboardClient owner = member("owner", "127.0.0.86");
        for (String path : new String[]{"/dashboard/test/developers/keys/" + theirKeyId + "/roll",
                "/dashboard/test/developers/keys/" + theirKeyId + "/revoke",
                "/dashboard/live/developers/keys/" + merchant.testKeyId() + "/revoke",
                "/dashboard/test/developers/keys/key_nothing/roll"}) {
            DashboardClient.Page page = owner.get(path);
            assertThat(page.status()).as(path).isEqualTo(404);
            assertThat(page.body()).contains("API key not found");
        }
        assertThat(owner.post("/dashboard/test/developers/keys/" + theirKeyId + "/revoke", Map.of("confirmed", "yes"))
                .status()).isEqualTo(404);
        assertThat(owner.post("/dashboard/test/developers/keys/" + theirKeyId + "/roll", Map.of("overlap", "now",
                "idempotency_key", java.util.UUID.randomUUID().toString())).status()).isEqualTo(404);
        assertThat(theirs.test().get("/collect/payments").send().status()).isEqualTo(200);
        assertThat(owner.get("/dashboard/test/developers/keys").body()).doesNotContain(theirKeyId);
        assertThat(audited("api_key.revoked", theirKeyId)).isNull();
    }
}
