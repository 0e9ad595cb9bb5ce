package io.tender.dashboard;

import io.tender.support.MailIntegrationTest;
import io.tender.support.Merchants.Merchant;
import jakarta.mail.BodyPart;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.internet.MimeMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Team section and the audit log (decisions §11, §13), over real HTTP with an SMTP server the service sends to:
 * an owner invites by email and the link in the email signs the new member in with their role; bad and duplicate
 * emails make nothing; inviting (any role), a new link and removing ask for the password first; a role change asks
 * for the password first and reaches the member's open session at its next request; a removed member is signed out at once and cannot sign in; a merchant keeps an owner; only owners reach
 * these pages; another merchant's member is not found; the audit log lists the team's changes with before and
 * after, newest first, filtered and a page at a time.
 */
class DashboardTeamIT extends MailIntegrationTest {

    private static final String PASSWORD = DashboardSignInIT.PASSWORD;
    private static final Pattern LINK = Pattern.compile("https?://[^\\s\"<]+/dashboard/link/[A-Za-z0-9_-]{43}");

    private Merchant merchant;
    private DashboardClient owner;
    private String ownerEmail;
    private String ownerId;

    @BeforeEach
    void merchantWithAnOwner() {
        merchant = merchants.create();
        owner = DashboardClient.member(base(), merchants, merchant, "owner", "127.0.0.81");
        var row = jdbc.sql("select id, email from dashboard_users where merchant_id = ? and role = 'owner'")
                .param(merchant.id()).query().singleRow();
        ownerId = (String) row.get("id");
        ownerEmail = (String) row.get("email");
    }

    private static String email(String who) {
        return who + "-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
    }

    /** A post from a page of the dashboard, as a person sends it: the form's CSRF token is the current one. */
    private static DashboardClient.Page post(DashboardClient client, String path, Map<String, String> fields) {
        client.get("/dashboard/test");
        return client.post(path, fields);
    }

    private String userId(String email) {
        return jdbc.sql("select id from dashboard_users where merchant_id = ? and email = ?")
                .params(merchant.id(), email).query(String.class).single();
    }

    private String role(String userId) {
        return jdbc.sql("select role from dashboard_users where id = ?").param(userId).query(String.class).single();
    }

    private long users() {
        return jdbc.sql("select count(*) from dashboard_users where merchant_id = ?").param(merchant.id())
                .query(Long.class).single();
    }

    /** Invites someone (with the owner's password, asked or not) and answers the link the page showed once. */
    private String invite(String email, String role) {
        var sent = post(owner, "/dashboard/test/team/invitations", Map.of("email", email, "role", role,
                "reauth_password", PASSWORD));
        assertThat(sent.status()).isEqualTo(303);
        assertThat(sent.location()).endsWith("/dashboard/test/team");
        var shown = owner.get("/dashboard/test/team");
        Matcher link = LINK.matcher(shown.body());
        assertThat(link.find()).as("the page shows the link once").isTrue();
        return link.group();
    }

    /** A member made through the admin API and signed in, and their email. */
    private Map.Entry<String, DashboardClient> signedIn(String role, String address) {
        DashboardClient client = DashboardClient.member(base(), merchants, merchant, role, address);
        String email = jdbc.sql("select email from dashboard_users where merchant_id = ? and role = ? "
                + "order by created_at desc limit 1").params(merchant.id(), role).query(String.class).single();
        return Map.entry(email, client);
    }

    @Test
    void anOwnerInvitesADeveloperByEmailAndTheLinkInItSignsThemInAsADeveloper() throws Exception {
        String email = email("dev");
        var page = owner.get("/dashboard/test/team");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("Invite someone").contains(ownerEmail).contains("Audit log")
                .contains("aria-current=\"page\">Members<");

        String shown = invite(email, "developer");
        assertThat(owner.get("/dashboard/test/team").body()).as("shown once").doesNotContain("/dashboard/link/");

        List<MimeMessage> mails = receivedBy(email);
        assertThat(mails).hasSize(1);
        MimeMessage mail = mails.getFirst();
        assertThat(mail.getSubject()).isEqualTo(ownerEmail + " invited you to " + merchant.name()
                + "'s Tender dashboard");
        assertThat(mail.getFrom()[0].toString()).contains("payments@tender.test");
        Map<String, String> parts = textParts(mail);
        assertThat(parts.get("text/plain")).contains(shown).contains(ownerEmail).contains(merchant.name())
                .contains("as a developer").contains("(24 hours)");
        assertThat(parts.get("text/html")).contains(shown).contains("Choose your password");

        String id = userId(email);
        assertThat(jdbc.sql("select after_state ->> 'role' from dashboard_audit_log where action = 'team.invited' "
                + "and target = ? and user_id = ?").params(id, ownerId).query(String.class).single())
                .isEqualTo("developer");
        assertThat(owner.get("/dashboard/test/team").body()).contains(email).contains("Invited, no password yet");

        DashboardClient developer = new DashboardClient(base(), "127.0.0.82");
        assertThat(developer.acceptLink(shown, PASSWORD).status()).isEqualTo(302);
        var home = developer.get("/dashboard/test");
        assertThat(home.status()).isEqualTo(200);
        assertThat(home.body()).contains(">developer<").doesNotContain(">Team<");
        assertThat(developer.get("/dashboard/test/team").status()).isEqualTo(403);
        assertThat(owner.get("/dashboard/test/team").body()).contains("Active");
    }

    @Test
    void aNewLinkForSomeoneWhoHasNotAcceptedReplacesTheEarlierOne() {
        String email = email("late");
        String first = invite(email, "viewer");
        String id = userId(email);
        var again = post(owner, "/dashboard/test/team/members/" + id + "/invitation", Map.of());
        assertThat(again.status()).isEqualTo(303);
        Matcher link = LINK.matcher(owner.get("/dashboard/test/team").body());
        assertThat(link.find()).isTrue();
        String second = link.group();
        assertThat(second).isNotEqualTo(first);
        assertThat(receivedBy(email)).hasSize(2);

        DashboardClient viewer = new DashboardClient(base(), "127.0.0.83");
        assertThat(viewer.get(java.net.URI.create(first).getPath()).status()).as("the first link ended").isEqualTo(404);
        assertThat(viewer.acceptLink(second, PASSWORD).status()).isEqualTo(302);
        assertThat(viewer.get("/dashboard/test").body()).contains(">viewer<");
        var accepted = post(owner, "/dashboard/test/team/members/" + id + "/invitation", Map.of());
        assertThat(accepted.status()).as("no new link once a password is chosen").isEqualTo(409);
        assertThat(receivedBy(email)).hasSize(2);
    }

    /** The owner signed in anew in another browser: a session that has confirmed nothing yet. */
    private DashboardClient freshOwnerSession() {
        DashboardClient client = new DashboardClient(base(), "127.0.0.81");
        assertThat(client.signIn(ownerEmail, PASSWORD).status()).isEqualTo(302);
        return client;
    }

    /**
     * Decisions §13: a stolen session must not add a permanent owner or remove the real ones. Inviting in any role, a
     * new link for who has not accepted (a way in as them) and removing a member each ask for the password first,
     * make nothing before it, and nothing on a wrong one.
     */
    @Test
    void invitingInAnyRoleANewLinkAndRemovingAMemberAskForThePasswordFirst() {
        for (String role : List.of("owner", "developer", "viewer")) {
            DashboardClient session = freshOwnerSession();
            String email = email("asked-" + role);
            var asked = post(session, "/dashboard/test/team/invitations", Map.of("email", email, "role", role));
            assertThat(asked.status()).as(role).isEqualTo(200);
            assertThat(asked.body()).contains("Confirm it is you").contains("Inviting " + email + " as " + role)
                    .contains("name=\"email\" value=\"" + email + "\"").doesNotContain("/dashboard/link/");
            var wrong = session.post("/dashboard/test/team/invitations", Map.of("email", email, "role", role,
                    "reauth_password", "not my password at all"));
            assertThat(wrong.status()).as(role).isEqualTo(401);
            assertThat(jdbc.sql("select count(*) from dashboard_users where lower(email) = lower(?)").param(email)
                    .query(Long.class).single()).as(role + ": nobody invited yet").isZero();
            assertThat(receivedBy(email)).as(role + ": no email yet").isEmpty();
            var done = session.post("/dashboard/test/team/invitations", Map.of("email", email, "role", role,
                    "reauth_password", PASSWORD));
            assertThat(done.status()).as(role).isEqualTo(303);
            assertThat(role(userId(email))).isEqualTo(role);
            assertThat(receivedBy(email)).hasSize(1);
        }

        String invited = userId(jdbc.sql("select email from dashboard_users where merchant_id = ? and role = 'viewer' "
                + "and password_hash is null").param(merchant.id()).query(String.class).single());
        DashboardClient session = freshOwnerSession();
        var again = post(session, "/dashboard/test/team/members/" + invited + "/invitation", Map.of());
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body()).contains("Confirm it is you").doesNotContain("/dashboard/link/");
        assertThat(jdbc.sql("select count(*) from dashboard_audit_log where action = 'team.invited' and target = ?")
                .param(invited).query(Long.class).single()).as("no new link before the password").isEqualTo(1);
        assertThat(session.post("/dashboard/test/team/members/" + invited + "/invitation",
                Map.of("reauth_password", PASSWORD)).status()).isEqualTo(303);
        assertThat(LINK.matcher(session.get("/dashboard/test/team").body()).find()).isTrue();

        var developer = signedIn("developer", "127.0.0.89");
        String developerId = userId(developer.getKey());
        DashboardClient removing = freshOwnerSession();
        post(removing, "/dashboard/test/team/members/" + developerId + "/remove", Map.of());
        var asked = removing.post("/dashboard/test/team/members/" + developerId + "/remove",
                Map.of("confirmed", "yes"));
        assertThat(asked.status()).isEqualTo(200);
        assertThat(asked.body()).contains("Confirm it is you").contains("name=\"confirmed\" value=\"yes\"");
        var wrong = removing.post("/dashboard/test/team/members/" + developerId + "/remove",
                Map.of("confirmed", "yes", "reauth_password", "not my password at all"));
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(developer.getValue().get("/dashboard/test").status()).as("still a member").isEqualTo(200);
        assertThat(removing.post("/dashboard/test/team/members/" + developerId + "/remove",
                Map.of("confirmed", "yes", "reauth_password", PASSWORD)).status()).isEqualTo(303);
        assertThat(developer.getValue().get("/dashboard/test").status()).isEqualTo(302);
    }

    @Test
    void aBadOrDuplicateEmailOrAnUnknownRoleIsRefusedBesideItsFieldAndMakesNothing() {
        String email = email("twice");
        invite(email, "viewer");
        long before = users();

        var duplicate = post(owner, "/dashboard/test/team/invitations",
                Map.of("email", email.toUpperCase(), "role", "developer"));
        assertThat(duplicate.status()).isEqualTo(400);
        assertThat(duplicate.body()).contains("id=\"invite-email-error\"")
                .contains("A member of this team has this email already.")
                .contains("aria-describedby=\"invite-email-error\"");
        var bad = post(owner, "/dashboard/test/team/invitations", Map.of("email", "not an email", "role", "viewer"));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body()).contains("Enter an email address such as name@example.com.")
                .contains("value=\"not an email\"");
        var role = post(owner, "/dashboard/test/team/invitations", Map.of("email", email("admin"), "role", "admin"));
        assertThat(role.status()).isEqualTo(400);
        assertThat(role.body()).contains("id=\"invite-role-error\"")
                .contains("Choose one of the roles: owner, developer or viewer.");

        assertThat(users()).isEqualTo(before);
        assertThat(receivedBy(email)).hasSize(1);
        assertThat(jdbc.sql("select count(*) from dashboard_audit_log where merchant_id = ? and action = "
                + "'team.invited'").param(merchant.id()).query(Long.class).single()).isEqualTo(1);
    }

    @Test
    void aRoleChangeAsksForThePasswordFirstAndTheMembersOpenSessionHasTheNewRoleAtItsNextRequest() {
        var viewer = signedIn("viewer", "127.0.0.84");
        String viewerId = userId(viewer.getKey());
        String refund = "/dashboard/test/payments/pay_" + "0".repeat(24) + "/refund";
        assertThat(post(viewer.getValue(), refund, Map.of()).status()).as("a viewer cannot act").isEqualTo(403);

        String path = "/dashboard/test/team/members/" + viewerId + "/role";
        var asked = post(owner, path, Map.of("role", "developer"));
        assertThat(asked.status()).isEqualTo(200);
        assertThat(asked.body()).contains("Confirm it is you")
                .contains("Changing the role of " + viewer.getKey() + " to developer")
                .contains("name=\"role\" value=\"developer\"");
        assertThat(role(viewerId)).isEqualTo("viewer");

        var wrong = owner.post(path, Map.of("role", "developer", "reauth_password", "not my password at all"));
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(role(viewerId)).as("a wrong password changes nothing").isEqualTo("viewer");

        var done = owner.post(path, Map.of("role", "developer", "reauth_password", PASSWORD));
        assertThat(done.status()).isEqualTo(303);
        assertThat(done.location()).endsWith("/dashboard/test/team?done=role");
        assertThat(role(viewerId)).isEqualTo("developer");
        var audited = jdbc.sql("select user_id, mode, before_state ->> 'role' as before, after_state ->> 'role' as after "
                + "from dashboard_audit_log where action = 'team.role_changed' and target = ?")
                .param(viewerId).query().singleRow();
        assertThat(audited).containsEntry("user_id", ownerId).containsEntry("mode", "test")
                .containsEntry("before", "viewer").containsEntry("after", "developer");

        assertThat(viewer.getValue().get("/dashboard/test").body()).contains(">developer<");
        assertThat(post(viewer.getValue(), refund, Map.of()).status()).as("promoted: past the role rule")
                .isEqualTo(404);

        var developer = signedIn("developer", "127.0.0.85");
        String developerId = userId(developer.getKey());
        assertThat(post(developer.getValue(), refund, Map.of()).status()).isEqualTo(404);
        var demoted = post(owner, "/dashboard/test/team/members/" + developerId + "/role", Map.of("role", "viewer"));
        assertThat(demoted.status()).as("confirmed within 5 minutes: not asked again").isEqualTo(303);
        assertThat(post(developer.getValue(), refund, Map.of()).status()).as("demoted: refused at once")
                .isEqualTo(403);
    }

    @Test
    void removingAMemberEndsTheirOpenSessionAtOnceAndTheyCannotSignInAgain() {
        var developer = signedIn("developer", "127.0.0.86");
        String id = userId(developer.getKey());
        assertThat(developer.getValue().get("/dashboard/test").status()).isEqualTo(200);

        var asked = post(owner, "/dashboard/test/team/members/" + id + "/remove", Map.of());
        assertThat(asked.status()).isEqualTo(200);
        assertThat(asked.body()).contains("Remove " + developer.getKey() + " from the team?")
                .contains("name=\"confirmed\" value=\"yes\"");
        assertThat(developer.getValue().get("/dashboard/test").status()).as("not before it is confirmed")
                .isEqualTo(200);

        var password = owner.post("/dashboard/test/team/members/" + id + "/remove", Map.of("confirmed", "yes"));
        assertThat(password.status()).as("then the password (decisions §13)").isEqualTo(200);
        assertThat(password.body()).contains("Confirm it is you")
                .contains("Removing " + developer.getKey() + " from the team");
        assertThat(developer.getValue().get("/dashboard/test").status()).as("not before the password").isEqualTo(200);
        var done = owner.post("/dashboard/test/team/members/" + id + "/remove", Map.of("confirmed", "yes",
                "reauth_password", PASSWORD));
        assertThat(done.status()).isEqualTo(303);
        assertThat(done.location()).endsWith("/dashboard/test/team?done=removed");
        var next = developer.getValue().get("/dashboard/test/payments");
        assertThat(next.status()).as("their next request is signed out").isEqualTo(302);
        assertThat(next.location()).endsWith("/dashboard/sign-in");
        assertThat(developer.getValue().signIn(developer.getKey(), PASSWORD).status()).isEqualTo(401);
        assertThat(jdbc.sql("select disabled from dashboard_users where id = ?").param(id).query(Boolean.class)
                .single()).isTrue();
        assertThat(jdbc.sql("select before_state ->> 'role' from dashboard_audit_log where action = 'team.removed' "
                + "and target = ?").param(id).query(String.class).single()).isEqualTo("developer");
        var team = owner.get("/dashboard/test/team?done=removed");
        assertThat(team.body()).contains("The member is removed and signed out everywhere.").contains("Removed")
                .contains("Cannot sign in");
    }

    @Test
    void theLastOwnerCannotBeDemotedAndNobodyRemovesThemselves() {
        var self = post(owner, "/dashboard/test/team/members/" + ownerId + "/role",
                Map.of("role", "viewer", "reauth_password", PASSWORD));
        assertThat(self.status()).isEqualTo(409);
        assertThat(self.body()).contains("You are the only owner. Make someone else an owner first.");
        assertThat(role(ownerId)).isEqualTo("owner");
        var removeSelf = post(owner, "/dashboard/test/team/members/" + ownerId + "/remove", Map.of("confirmed", "yes"));
        assertThat(removeSelf.status()).isEqualTo(409);
        assertThat(removeSelf.body()).contains("You cannot remove yourself.");

        var second = signedIn("owner", "127.0.0.87");
        String secondId = userId(second.getKey());
        var stepDown = post(owner, "/dashboard/test/team/members/" + ownerId + "/role", Map.of("role", "developer"));
        assertThat(stepDown.status()).as("another owner remains").isEqualTo(303);
        assertThat(stepDown.location()).endsWith("/dashboard/test");
        assertThat(owner.get("/dashboard/test/team").status()).as("no longer an owner").isEqualTo(403);
        var last = post(second.getValue(), "/dashboard/test/team/members/" + secondId + "/role",
                Map.of("role", "viewer", "reauth_password", PASSWORD));
        assertThat(last.status()).isEqualTo(409);
        assertThat(role(secondId)).isEqualTo("owner");
        assertThat(jdbc.sql("select count(*) from dashboard_audit_log where merchant_id = ? and action = "
                + "'team.role_changed'").param(merchant.id()).query(Long.class).single()).isEqualTo(1);
    }

    @Test
    void developersAndViewersCannotReachTheTeamOrTheAuditLog() {
        String target = ownerId;
        for (String role : List.of("developer", "viewer")) {
            DashboardClient member = signedIn(role, "127.0.0.88").getValue();
            for (String page : List.of("/dashboard/test/team", "/dashboard/live/team", "/dashboard/test/team/",
                    "/dashboard/test/team/audit")) {
                assertThat(member.get(page).status()).as(role + " GET " + page).isEqualTo(403);
            }
            for (String action : List.of("/dashboard/test/team/invitations", "/dashboard/test/team/members/"
                    + target + "/role", "/dashboard/test/team/members/" + target + "/remove",
                    "/dashboard/test/team/members/" + target + "/invitation")) {
                var refused = post(member, action, Map.of("email", email("x"), "role", "owner",
                        "confirmed", "yes", "reauth_password", PASSWORD));
                assertThat(refused.status()).as(role + " POST " + action).isEqualTo(403);
            }
        }
        assertThat(role(ownerId)).isEqualTo("owner");
        assertThat(users()).isEqualTo(3);
    }

    @Test
    void anotherMerchantsMemberIsNotFoundAndUnchanged() {
        Merchant other = merchants.create();
        String otherEmail = email("other");
        merchants.admin().post("/admin/merchants/" + other.name() + "/users",
                "{\"email\":\"" + otherEmail + "\",\"role\":\"developer\"}").send();
        String otherId = jdbc.sql("select id from dashboard_users where merchant_id = ?").param(other.id())
                .query(String.class).single();
        for (String action : List.of("role", "remove", "invitation")) {
            var page = post(owner, "/dashboard/test/team/members/" + otherId + "/" + action,
                    Map.of("role", "viewer", "confirmed", "yes", "reauth_password", PASSWORD));
            assertThat(page.status()).as(action).isEqualTo(404);
            assertThat(page.body()).contains("Member not found").doesNotContain(otherEmail);
        }
        assertThat(jdbc.sql("select role || ' ' || disabled from dashboard_users where id = ?").param(otherId)
                .query(String.class).single()).isEqualTo("developer false");
        assertThat(owner.get("/dashboard/test/team").body()).doesNotContain(otherEmail);
        assertThat(receivedBy(otherEmail)).isEmpty();
    }

    @Test
    void theAuditLogShowsTheTeamsChangesNewestFirstWithBeforeAndAfterFilteredAndPaged() {
        String email = email("audited");
        invite(email, "viewer");
        String id = userId(email);
        post(owner, "/dashboard/test/team/members/" + id + "/role", Map.of("role", "developer",
                "reauth_password", PASSWORD));
        Merchant other = merchants.create();
        jdbc.sql("insert into dashboard_audit_log (occurred_at, merchant_id, actor, action) values (now(), ?, "
                + "'someone@other.example', 'team.invited')").param(other.id()).update();

        var all = owner.get("/dashboard/live/team/audit");
        assertThat(all.status()).isEqualTo(200);
        assertThat(all.body()).contains("aria-current=\"page\">Audit log<");
        String rows = tbody(all.body());
        assertThat(rows).contains("Changed a member&#39;s role").contains("Invited a member").contains("Signed in")
                .contains(email).contains(id).contains(ownerEmail).contains("127.0.0.81")
                .contains("{&quot;role&quot;: &quot;viewer&quot;}").contains("{&quot;role&quot;: &quot;developer&quot;}")
                .doesNotContain("someone@other.example");
        assertThat(rows.indexOf("team.role_changed")).as("newest first").isLessThan(rows.indexOf("team.invited"));
        assertThat(post(owner, "/dashboard/test/team/audit", Map.of()).status()).as("nothing to change")
                .isEqualTo(405);

        String invited = tbody(owner.get("/dashboard/test/team/audit?action=team.invited").body());
        assertThat(invited).contains("team.invited").doesNotContain("team.role_changed").doesNotContain("sign_in.");
        assertThat(tbody(owner.get("/dashboard/test/team/audit?who=" + ownerEmail.substring(0, 10)).body()))
                .contains("team.role_changed");
        assertThat(tbody(owner.get("/dashboard/test/team/audit?who=" + ownerId).body())).contains("team.role_changed");
        assertThat(owner.get("/dashboard/test/team/audit?who=" + id).body()).as("the invited member did nothing yet")
                .contains("No entries match these filters");
        String tomorrow = LocalDate.now(ZoneOffset.UTC).plusDays(1).toString();
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        assertThat(owner.get("/dashboard/test/team/audit?from=" + tomorrow).body()).contains("No entries match these filters");
        assertThat(tbody(owner.get("/dashboard/test/team/audit?from=" + today + "&to=" + today).body()))
                .contains("team.role_changed");
        var badDate = owner.get("/dashboard/test/team/audit?from=yesterday");
        assertThat(badDate.status()).isEqualTo(400);
        assertThat(badDate.body()).contains("Enter a date such as 2026-11-28.");
        assertThat(owner.get("/dashboard/test/team/audit?action=drop.table").status()).isEqualTo(400);

        for (int i = 0; i < AuditLogController.PAGE_SIZE + 5; i++) {
            jdbc.sql("insert into dashboard_audit_log (occurred_at, merchant_id, user_id, actor, action, mode) "
                    + "values (now(), ?, ?, ?, 'sign_in.failed', 'test')").params(merchant.id(), ownerId, ownerEmail)
                    .update();
        }
        var first = owner.get("/dashboard/test/team/audit?action=sign_in.failed");
        assertThat(count(tbody(first.body()), "<tr>")).isEqualTo(AuditLogController.PAGE_SIZE);
        Matcher next = Pattern.compile("href=\"([^\"]+)\" rel=\"next\"").matcher(first.body());
        assertThat(next.find()).isTrue();
        var second = owner.get(next.group(1).replace("&amp;", "&"));
        assertThat(count(tbody(second.body()), "<tr>")).isEqualTo(5);
        assertThat(second.body()).contains("First page").doesNotContain("rel=\"next\"");
    }

    private static String tbody(String page) {
        int start = page.indexOf("<tbody>");
        return start < 0 ? "" : page.substring(start, page.indexOf("</tbody>"));
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    /** The message's text parts by content type, wherever they sit in its multipart tree. */
    private static Map<String, String> textParts(Part part) throws Exception {
        var found = new LinkedHashMap<String, String>();
        if (part.isMimeType("multipart/*")) {
            Multipart multipart = (Multipart) part.getContent();
            for (int i = 0; i < multipart.getCount(); i++) {
                BodyPart child = multipart.getBodyPart(i);
                found.putAll(textParts(child));
            }
        } else if (part.isMimeType("text/*")) {
            found.put(part.getContentType().split(";")[0].trim().toLowerCase(), (String) part.getContent());
        }
        return found;
    }
}
