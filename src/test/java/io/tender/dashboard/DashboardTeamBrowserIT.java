package io.tender.dashboard;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Browser;
import io.tender.support.Browser.Window;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.By;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Team section as an owner uses it, in Debian's chromium, on a service with no mail server: they invite a
 * teammate (a wrong email first) through the password confirmation, are told honestly that no email went out and given
 * the link to hand over, change the teammate's role (not asked again within the window), remove them after the
 * confirmation page, and read and filter the audit log. Every page is checked with axe-core (no serious or critical finding) and saved at phone and
 * desktop width as {@code target/screenshots/dashboard/{phone,desktop}-team-<n>-<name>.png}.
 */
class DashboardTeamBrowserIT extends ApiIntegrationTest {

    private static final String PASSWORD = "a long and memorable passphrase";

    @ParameterizedTest
    @EnumSource(Window.class)
    void anOwnerInvitesChangesARoleRemovesAMemberAndReadsTheAuditLog(Window window) {
        Merchant merchant = merchants.create();
        String owner = "owner-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        String teammate = "ada.lovelace-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        var created = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"" + owner + "\",\"role\":\"owner\"}").send();
        String prefix = window.name().toLowerCase() + "-team-";

        try (Browser browser = Browser.open("dashboard", window)) {
            browser.get(created.json().get("sign_in_url").stringValue()).awaitText("Choose your password");
            browser.type("New password", PASSWORD).type("The same password again", PASSWORD)
                    .click("Set password and sign in").awaitUrl(base() + "/dashboard/test");

            browser.click("Team").awaitText("Invite someone");
            assertThat(browser.text()).contains(owner).contains("Active").doesNotContain("Remove…");
            check(browser, prefix + "1-members");

            browser.type("Email", "ada at example").select("Role", "developer").click("Send invitation")
                    .awaitText("Enter an email address such as name@example.com.");
            check(browser, prefix + "2-invite-error");

            browser.type("Email", teammate).click("Send invitation").awaitText("Confirm it is you");
            assertThat(browser.text()).contains("Inviting " + teammate + " as developer");
            check(browser, prefix + "3-confirm-password");
            browser.type("Password", PASSWORD).click("Confirm")
                    .awaitText("Invitation for " + teammate + " as developer");
            assertThat(browser.text()).contains("No email was sent: this service has no mail server configured")
                    .contains("Invited, no password yet").contains("Never");
            String link = browser.labelled("One-time sign-in link").getDomProperty("value");
            assertThat(link).startsWith(base() + "/dashboard/link/");
            check(browser, prefix + "4-invited");

            // Confirmed a minute ago: the role change is not asked again.
            browser.select("New role for " + teammate, "viewer").click("Change role of " + teammate)
                    .awaitText("The role is changed.");
            check(browser, prefix + "5-role-changed");

            browser.click("Remove… " + teammate).awaitText("Remove " + teammate + " from the team?");
            check(browser, prefix + "6-remove-confirm");
            browser.click("Remove " + teammate).awaitText("The member is removed and signed out everywhere.");
            assertThat(browser.text()).contains("Removed").contains("Cannot sign in");
            check(browser, prefix + "7-removed");

            browser.get(link).awaitText("no longer works");

            browser.get(base() + "/dashboard/test/team").click("Audit log").awaitText("Entries");
            assertThat(browser.text()).contains("Removed a member").contains("Changed a member's role")
                    .contains("Invited a member").contains("Signed in").contains(teammate);
            check(browser, prefix + "8-audit");

            browser.select("Action", "Changed a member's role").click("Apply filters")
                    .awaitText("Clear filters");
            assertThat(browser.findAll(By.cssSelector("table.audit tbody tr"))).hasSize(1);
            assertThat(browser.text()).contains("{\"role\": \"developer\"}").contains("{\"role\": \"viewer\"}");
            check(browser, prefix + "9-audit-filtered");
        }
    }

    private static void check(Browser browser, String screenshot) {
        Axe.noSeriousFindings(browser);
        browser.screenshot(screenshot);
    }
}
