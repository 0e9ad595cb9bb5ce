package io.tender.dashboard;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §13: the audit log cannot be flooded from outside, and it is whole for each merchant. Over HTTP with no
 * session, as anyone on the internet can send them: a refused streak of sign-ins is one row per email and address
 * per window, not one per attempt; sign-ins for an email no user has write no row at all (the service's log has
 * them, escaped); an email that users of two merchants share is recorded at both. And the log's page names every
 * action in words and offers each one in its filter ({@link AuditActionsTest} proves the same of the list itself).
 */
@ExtendWith(OutputCaptureExtension.class)
class DashboardAuditLogFloodIT extends ApiIntegrationTest {

    private static final String PASSWORD = DashboardSignInIT.PASSWORD;
    private static final Pattern OPTION = Pattern.compile("<option value=\"([^\"]*)\"[^>]*>([^<]*)</option>");

    private String userOf(Merchant merchant, String email, String role) {
        var created = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"" + email + "\",\"role\":\"" + role + "\"}").send();
        assertThat(created.status()).isEqualTo(201);
        return created.json().get("sign_in_url").stringValue();
    }

    private static String email(String who) {
        return who + "-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
    }

    private long rows(Merchant merchant, String action) {
        return jdbc.sql("select count(*) from dashboard_audit_log where merchant_id = ? and action = ?")
                .params(merchant.id(), action).query(Long.class).single();
    }

    @Test
    void thirtyPostsForOneEmailFromOneAddressWriteItsTenFailuresAndOneRefusal() {
        Merchant merchant = merchants.create();
        String email = email("target");
        new DashboardClient(base(), "127.0.0.90").acceptLink(userOf(merchant, email, "owner"), PASSWORD);

        DashboardClient attacker = new DashboardClient(base(), "127.0.0.91");
        attacker.get("/dashboard/sign-in");
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            statuses.add(attacker.postExactly("/dashboard/sign-in", Map.of("_csrf", attacker.csrf(), "email", email,
                    "password", "guess " + i), "User-Agent", "flood/" + i + " " + "x".repeat(400)).status());
        }
        assertThat(statuses.subList(0, 10)).containsOnly(401);
        assertThat(statuses.subList(10, 30)).containsOnly(429);
        assertThat(rows(merchant, "sign_in.failed")).isEqualTo(10);
        assertThat(rows(merchant, "sign_in.throttled")).as("the refused streak, once").isEqualTo(1);

        // Another address refused for the same email is another streak: one more row, then none.
        DashboardClient other = new DashboardClient(base(), "127.0.0.92");
        for (int i = 0; i < 5; i++) {
            assertThat(other.signIn(email, PASSWORD).status()).isEqualTo(429);
        }
        assertThat(rows(merchant, "sign_in.throttled")).isEqualTo(2);
    }

    @Test
    void postsForAnEmailNoUserHasWriteNoRowAnywhereButEscapedLinesInTheServicesLog(CapturedOutput output) {
        long before = jdbc.sql("select count(*) from dashboard_audit_log").query(Long.class).single();
        String marker = UUID.randomUUID().toString().substring(0, 8);
        String forged = "nobody-" + marker + "@example.com\r\n2026-12-01T00:00:00.000Z ERROR forged-" + marker;

        DashboardClient attacker = new DashboardClient(base(), "127.0.0.93");
        attacker.get("/dashboard/sign-in");
        for (int i = 0; i < 30; i++) {
            attacker.post("/dashboard/sign-in", Map.of("email", forged, "password", "guess " + i));
        }
        assertThat(jdbc.sql("select count(*) from dashboard_audit_log").query(Long.class).single())
                .as("no row of no merchant, nor of any other").isEqualTo(before);
        assertThat(jdbc.sql("select count(*) from dashboard_audit_log where actor like ?").param("%" + marker + "%")
                .query(Long.class).single()).isZero();

        List<String> lines = output.getOut().lines().filter(line -> line.contains(marker)).toList();
        assertThat(lines).as("every line with the email").allSatisfy(line -> assertThat(line)
                .contains("for an email no user has: nobody-" + marker + "@example.com\\r\\n2026-12-01")
                .contains("from 127.0.0.93"));
        // Ten failures use up the email's window; the twenty refusals after them are one line.
        assertThat(lines).filteredOn(line -> line.contains("sign_in.failed")).hasSize(10);
        assertThat(lines).filteredOn(line -> line.contains("sign_in.throttled")).as("once per window").hasSize(1);
        assertThat(output.getOut().lines()).noneMatch(line -> line.startsWith("2026-12-01T00:00:00.000Z ERROR"));
    }

    @Test
    void aFailedSignInForAnEmailUsersOfTwoMerchantsShareIsRecordedAtBothMerchants() {
        Merchant first = merchants.create();
        Merchant second = merchants.create();
        String email = email("shared");
        new DashboardClient(base(), "127.0.0.94").acceptLink(userOf(first, email, "owner"), PASSWORD);
        new DashboardClient(base(), "127.0.0.94").acceptLink(userOf(second, email.toUpperCase(), "viewer"),
                PASSWORD + " elsewhere");

        assertThat(new DashboardClient(base(), "127.0.0.95").signIn(email, "neither password").status())
                .isEqualTo(401);
        for (Merchant merchant : List.of(first, second)) {
            var rows = jdbc.sql("select a.user_id, u.merchant_id as users_merchant, a.target from dashboard_audit_log a "
                            + "join dashboard_users u on u.id = a.user_id where a.merchant_id = ? "
                            + "and a.action = 'sign_in.failed'").param(merchant.id()).query().listOfRows();
            assertThat(rows).as("the failure in the log of " + merchant.name()).hasSize(1);
            assertThat(rows.getFirst().get("users_merchant")).as("the merchant's own user").isEqualTo(merchant.id());
            assertThat(rows.getFirst().get("target")).isEqualTo(rows.getFirst().get("user_id"));
        }

        for (int i = 0; i < 9; i++) {
            new DashboardClient(base(), "127.0.0.95").signIn(email, "wrong " + i);
        }
        assertThat(new DashboardClient(base(), "127.0.0.96").signIn(email, PASSWORD).status()).isEqualTo(429);
        for (Merchant merchant : List.of(first, second)) {
            assertThat(rows(merchant, "sign_in.failed")).isEqualTo(10);
            assertThat(rows(merchant, "sign_in.throttled")).isEqualTo(1);
        }
    }

    /**
     * Every action has words and a place in the filter (today's {@code api_key.created} showed only its code and could
     * not be chosen): the page's filter offers exactly the actions of {@link AuditActions}, each in its words, and
     * choosing any of them is a filter the page accepts; an entry shows its action's words.
     */
    @Test
    void theAuditLogNamesEveryActionInWordsAndItsFilterOffersEachOne() {
        Merchant merchant = merchants.create();
        DashboardClient owner = DashboardClient.member(base(), merchants, merchant, "owner", "127.0.0.97");
        DashboardClient developer = DashboardClient.member(base(), merchants, merchant, "developer", "127.0.0.97");
        developer.get("/dashboard/test/developers/keys");
        var key = developer.post("/dashboard/test/developers/keys", Map.of("kind", "secret",
                "idempotency_key", keyOf(developer.get("/dashboard/test/developers/keys").body())));
        assertThat(key.status()).isEqualTo(200);

        var page = owner.get("/dashboard/test/team/audit");
        assertThat(page.status()).isEqualTo(200);
        String select = page.body().substring(page.body().indexOf("<select id=\"f-action\""));
        select = select.substring(0, select.indexOf("</select>"));
        Map<String, String> offered = new LinkedHashMap<>();
        Matcher option = OPTION.matcher(select);
        while (option.find()) {
            if (!option.group(1).isEmpty()) {
                offered.put(option.group(1), option.group(2).replace("&#39;", "'"));
            }
        }
        assertThat(offered).isEqualTo(AuditActions.WORDS);
        assertThat(offered).allSatisfy((code, words) -> assertThat(words).isNotBlank().isNotEqualTo(code));
        List<String> written = jdbc.sql("select distinct action from dashboard_audit_log where merchant_id = ?")
                .param(merchant.id()).query(String.class).list();
        assertThat(written).contains("api_key.created", "password.set", "sign_in.succeeded");
        assertThat(offered).as("every action this merchant's log holds").containsKeys(written.toArray(String[]::new));
        for (String action : offered.keySet()) {
            assertThat(owner.get("/dashboard/test/team/audit?action=" + action).status()).as(action).isEqualTo(200);
        }
        String created = owner.get("/dashboard/test/team/audit?action=api_key.created").body();
        assertThat(created).contains("<tbody>");
        assertThat(created.substring(created.indexOf("<tbody>"))).contains("Created an API key")
                .contains("api_key.created");
    }

    private static String keyOf(String page) {
        Matcher m = Pattern.compile("name=\"idempotency_key\" value=\"([0-9a-f-]{36})\"").matcher(page);
        assertThat(m.find()).isTrue();
        return m.group(1);
    }
}
