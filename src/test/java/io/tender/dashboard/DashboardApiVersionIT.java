package io.tender.dashboard;

import io.tender.apiversion.ApiVersions;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Developers → API version over HTTP (decisions §15): the pinned and the newest version and, in the version changes'
 * own words, what upgrading changes; an owner upgrades after confirming their password, and may roll back for 72
 * hours, both audited and both moving what the API answers without {@code Tender-Version}; developers and viewers
 * read and change nothing; a stale page upgrades nothing.
 */
class DashboardApiVersionIT extends ApiIntegrationTest {

    private static final String PAGE = "/dashboard/test/developers/api-version";
    private static final String PASSWORD = DashboardSignInIT.PASSWORD;

    private Merchant merchant;

    @BeforeEach
    void pinnedToTheOldest() {
        merchant = merchants.create();
        var pinned = merchants.admin().patch("/admin/merchants/" + merchant.name(), "{\"api_version\":\"2026-03-13\"}")
                .send();
        assertThat(pinned.status()).as(pinned.toString()).isEqualTo(200);
    }

    private String answeredVersion() {
        return merchant.test().get("/collect/payments?limit=1").send().header("Tender-Version");
    }

    private String audited(String action) {
        return jdbc.sql("""
                        select (before_state ->> 'api_version') || ' -> ' || (after_state ->> 'api_version')
                        from dashboard_audit_log where merchant_id = ? and action = ? order by id desc limit 1""")
                .params(merchant.id(), action).query(String.class).optional().orElse(null);
    }

    @Test
    void thePageShowsThePinnedAndNewestVersionsAndWhatUpgradingChangesInTheChangesWords() {
        DashboardClient owner = DashboardClient.member(base(), merchants, merchant, "owner", "127.0.0.91");
        var page = owner.get(PAGE);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("data-pinned>2026-03-13<").contains("data-newest>2026-06-01<")
                .contains("Upgrade to <span>2026-06-01</span>")
                .contains("<code>checkout_options.display_pay_button</code> replaces <code>displayPayButton</code>")
                .contains("The error code <code>payment_not_found</code>")
                .contains("<code>pay_by_bank</code> replaces <code>instant_eft</code>")
                .contains("in-flight statuses fold into <code>pending</code>")
                .contains("<code>pending_action</code> (the customer must act");
        // The same on the live mode's page: the pin is the merchant's.
        assertThat(owner.get("/dashboard/live/developers/api-version").body()).contains("data-pinned>2026-03-13<");
        // The newest's changes only, for a merchant pinned in between.
        merchants.admin().patch("/admin/merchants/" + merchant.name(), "{\"api_version\":\"2026-03-16\"}").send();
        assertThat(owner.get(PAGE).body()).contains("<code>pay_by_bank</code> replaces")
                .doesNotContain("The error code <code>payment_not_found</code>").doesNotContain("displayPayButton");
    }

    @Test
    void anOwnerUpgradesAfterConfirmingTheirPasswordAndMayRollBackBothAudited() {
        DashboardClient owner = DashboardClient.member(base(), merchants, merchant, "owner", "127.0.0.92");
        owner.get(PAGE);
        String upgrade = PAGE + "/upgrade";
        var asked = owner.post(upgrade, Map.of("to", "2026-06-01"));
        assertThat(asked.status()).isEqualTo(200);
        assertThat(asked.body()).contains("Confirm it is you").contains("Upgrading the API version to 2026-06-01")
                .contains("name=\"to\" value=\"2026-06-01\"");
        assertThat(answeredVersion()).isEqualTo("2026-03-13");
        assertThat(owner.post(upgrade, Map.of("to", "2026-06-01", "reauth_password", "not my password at all"))
                .status()).isEqualTo(401);
        assertThat(answeredVersion()).as("a wrong password changes nothing").isEqualTo("2026-03-13");

        var done = owner.post(upgrade, Map.of("to", "2026-06-01", "reauth_password", PASSWORD));
        assertThat(done.status()).isEqualTo(303);
        assertThat(done.location()).endsWith(PAGE + "?done=upgraded");
        assertThat(answeredVersion()).isEqualTo("2026-06-01");
        assertThat(audited("api_version.upgraded")).isEqualTo("2026-03-13 -> 2026-06-01");
        var after = owner.get(PAGE + "?done=upgraded");
        assertThat(after.body()).contains("data-pinned>2026-06-01<").contains("You are on the newest version")
                .contains("Roll back to <span>2026-03-13</span>");
        assertThat(owner.get("/dashboard/test/team/audit").body()).contains("Upgraded the API version");

        var rolledBack = owner.post(PAGE + "/rollback", Map.of());
        assertThat(rolledBack.status()).as("confirmed within 5 minutes: not asked again").isEqualTo(303);
        assertThat(answeredVersion()).isEqualTo("2026-03-13");
        assertThat(audited("api_version.rolled_back")).isEqualTo("2026-06-01 -> 2026-03-13");
        assertThat(owner.get(PAGE).body()).doesNotContain("Roll back to");
        var again = owner.post(PAGE + "/rollback", Map.of());
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.body()).contains("There is no upgrade to roll back.");
        assertThat(answeredVersion()).isEqualTo("2026-03-13");
    }

    @Test
    void anUpgradeCannotBeRolledBackAfter72Hours() {
        merchants.admin().patch("/admin/merchants/" + merchant.name(), "{\"api_version\":\"2026-06-01\"}").send();
        DashboardClient owner = DashboardClient.member(base(), merchants, merchant, "owner", "127.0.0.93");
        assertThat(owner.get(PAGE).body()).contains("Roll back to <span>2026-03-13</span>");
        jdbc.sql("update merchants set api_version_changed_at = now() - interval '73 hours' where id = ?")
                .param(merchant.id()).update();

        assertThat(owner.get(PAGE).body()).doesNotContain("Roll back to");
        var refused = owner.post(PAGE + "/rollback", Map.of("reauth_password", PASSWORD));
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.body()).contains("more than 72 hours ago");
        assertThat(answeredVersion()).isEqualTo("2026-06-01");
        assertThat(audited("api_version.rolled_back")).isNull();
    }

    @Test
    void aStalePageOrTheNewestVersionUpgradesNothing() {
        DashboardClient owner = DashboardClient.member(base(), merchants, merchant, "owner", "127.0.0.94");
        owner.get(PAGE);
        var stale = owner.post(PAGE + "/upgrade", Map.of("to", "2026-03-16", "reauth_password", PASSWORD));
        assertThat(stale.status()).isEqualTo(409);
        assertThat(stale.body()).contains("This page was out of date");
        assertThat(answeredVersion()).isEqualTo("2026-03-13");

        merchants.admin().patch("/admin/merchants/" + merchant.name(), "{\"api_version\":\"2026-06-01\"}").send();
        var already = owner.post(PAGE + "/upgrade", Map.of("to", ApiVersions.NEWEST.wire(),
                "reauth_password", PASSWORD));
        assertThat(already.status()).isEqualTo(409);
        assertThat(already.body()).contains("The API version is already 2026-06-01.");
        assertThat(audited("api_version.upgraded")).isNull();
    }

    @Test
    void developersAndViewersReadThePageButOnlyAnOwnerChangesTheVersion() {
        for (String role : new String[]{"developer", "viewer"}) {
            DashboardClient member = DashboardClient.member(base(), merchants, merchant, role, "127.0.0.95");
            var page = member.get(PAGE);
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.body()).contains("data-pinned>2026-03-13<").contains("Only an owner can upgrade")
                    .doesNotContain("/api-version/upgrade\"");
            assertThat(member.post(PAGE + "/upgrade", Map.of("to", "2026-06-01", "reauth_password", PASSWORD))
                    .status()).as(role).isEqualTo(403);
            assertThat(member.post(PAGE + "/rollback", Map.of("reauth_password", PASSWORD)).status()).as(role)
                    .isEqualTo(403);
        }
        assertThat(answeredVersion()).isEqualTo("2026-03-13");
    }
}
