package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.auth.Merchants;
import io.tender.notify.TeamInvitationMail;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.View;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Team page (decisions §11, owners only by {@link DashboardSecurity}'s rule on {@code /dashboard/*\/team/**}):
 * the merchant's members with their role, status, last sign-in and second factor; inviting someone by email with a
 * role (the one-time link is emailed through §7's mail settings and shown here once to hand over); a new link for
 * who has not accepted; changing a role; removing a member after a confirmation. Inviting, a new link, a role change
 * and a removal each ask for the password again ({@link Reauthentication}, decisions §13). The rules themselves (the
 * last owner, the audit rows) are {@link Team}'s.
 */
@Hidden
@Controller
record TeamController(DashboardUsers users, Team team, Reauthentication reauth, Merchants merchants) {

    /** What the page says after a change went through. */
    private static final Map<String, String> DONE = Map.of("role", "The role is changed. It applies from the "
            + "member's next click.", "removed", "The member is removed and signed out everywhere.");
    private static final String INVITATION = "invitation";

    @GetMapping("/dashboard/{mode:test|live}/team")
    String members(@PathVariable String mode, @RequestParam(name = "done", required = false) String done,
                   @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, Model model) {
        model.addAttribute("notice", done == null ? null : DONE.get(done));
        return page(user, mode, csrf, "", "developer", Map.of(), null, model);
    }

    /** Invites someone: a new user of the merchant with the role, and their one-time link by email. */
    @PostMapping("/dashboard/{mode:test|live}/team/invitations")
    String invite(@PathVariable String mode, @RequestParam(name = "email", required = false) String emailTyped,
                  @RequestParam(name = "role", required = false) String roleTyped,
                  @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                  HttpServletResponse response, RedirectAttributes redirect, Model model) {
        String email = emailTyped == null ? "" : emailTyped.strip();
        String roleValue = roleTyped == null ? "" : roleTyped;
        Map<String, String> errors = new LinkedHashMap<>();
        if (email.isEmpty()) {
            errors.put("email", "Enter the email address of the person to invite.");
        } else if (email.length() > 254 || !UserAdmin.EMAIL.matcher(email).matches()) {
            errors.put("email", "Enter an email address such as name@example.com.");
        }
        Optional<Role> role = Role.fromWire(roleValue);
        if (role.isEmpty()) {
            errors.put("role", "Choose one of the roles: owner, developer or viewer.");
        }
        if (errors.isEmpty()) {
            // Who may invite may add an owner: the password first (decisions §13), once the form is right.
            Optional<String> confirm = reauth.confirm(user, mode, "Inviting " + email + " as " + role.get().wire(),
                    request, response, model);
            if (confirm.isPresent()) {
                return confirm.get();
            }
            try {
                Team.Invitation invitation = team.invite(user, mode, email, role.get(), request);
                return shown(mode, invitation, request, redirect);
            } catch (DashboardUsers.EmailTaken e) {
                boolean removed = users.byEmail(email).stream()
                        .anyMatch(u -> u.merchantId().equals(user.merchantId()) && u.disabled());
                errors.put("email", removed
                        ? "A removed member had this email. A removed member cannot be invited again with it."
                        : "A member of this team has this email already.");
            }
        }
        response.setStatus(HttpStatus.BAD_REQUEST.value());
        return page(user, mode, csrf, email, roleValue, errors, null, model);
    }

    /** A new link for a member who has not chosen a password yet; the earlier links stop working. */
    @PostMapping("/dashboard/{mode:test|live}/team/members/{id}/invitation")
    String reinvite(@PathVariable String mode, @PathVariable String id, @AuthenticationPrincipal SignedInUser user,
                    CsrfToken csrf, HttpServletRequest request, HttpServletResponse response,
                    RedirectAttributes redirect, Model model) {
        Optional<DashboardUsers.User> member = member(user, id);
        if (member.isEmpty()) {
            return notFound(user, mode, csrf, id, response, model);
        }
        if (!Team.status(member.get()).equals("invited")) {
            return chosen(user, mode, csrf, member.get(), response, model);
        }
        // A new link is a way in as this member, an owner perhaps: the password first (decisions §13).
        Optional<String> confirm = reauth.confirm(user, mode, "Sending a new sign-in link to "
                + member.get().email(), request, response, model);
        if (confirm.isPresent()) {
            return confirm.get();
        }
        Optional<Team.Invitation> invitation = team.reinvite(user, mode, member.get(), request);
        return invitation.isPresent() ? shown(mode, invitation.get(), request, redirect)
                : chosen(user, mode, csrf, member.get(), response, model);
    }

    private String chosen(SignedInUser user, String mode, CsrfToken csrf, DashboardUsers.User member,
                          HttpServletResponse response, Model model) {
        return refused(user, mode, csrf, member.email() + " has chosen a password already: they sign in with it.",
                response, model);
    }

    /** The team page again (409) with why a change to a member was refused; nothing changed. */
    private String refused(SignedInUser user, String mode, CsrfToken csrf, String reason,
                           HttpServletResponse response, Model model) {
        response.setStatus(HttpStatus.CONFLICT.value());
        return page(user, mode, csrf, "", "developer", Map.of(), reason, model);
    }

    /** Changes a member's role once the owner has re-entered their password (decisions §11). */
    @PostMapping("/dashboard/{mode:test|live}/team/members/{id}/role")
    String changeRole(@PathVariable String mode, @PathVariable String id,
                      @RequestParam(name = "role", required = false) String roleTyped,
                      @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                      HttpServletResponse response, Model model) {
        Optional<DashboardUsers.User> member = member(user, id);
        if (member.isEmpty()) {
            return notFound(user, mode, csrf, id, response, model);
        }
        Optional<Role> role = Role.fromWire(roleTyped);
        if (role.isEmpty() || member.get().disabled()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            return page(user, mode, csrf, "", "developer", Map.of(), role.isEmpty()
                    ? "Choose one of the roles: owner, developer or viewer."
                    : member.get().email() + " was removed from the team.", model);
        }
        if (member.get().role() == role.get()) {
            return seeOther(request, "/dashboard/" + mode + "/team");
        }
        Optional<String> confirm = reauth.confirm(user, mode, "Changing the role of " + member.get().email()
                + " to " + role.get().wire(), request, response, model);
        if (confirm.isPresent()) {
            return confirm.get();
        }
        return switch (team.changeRole(user, mode, id, role.get(), request)) {
            case Team.Outcome.Done() -> seeOther(request, id.equals(user.userId()) && role.get() != Role.OWNER
                    ? "/dashboard/" + mode : "/dashboard/" + mode + "/team?done=role");
            case Team.Outcome.Refused(String reason) -> refused(user, mode, csrf, reason, response, model);
        };
    }

    /**
     * Removes a member: first a page that says what happens, then, confirmed, the member is disabled, their links
     * end, and their sessions end at their next request.
     */
    @PostMapping("/dashboard/{mode:test|live}/team/members/{id}/remove")
    String remove(@PathVariable String mode, @PathVariable String id,
                  @RequestParam(name = "confirmed", required = false) String confirmed,
                  @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                  HttpServletResponse response, Model model) {
        Optional<DashboardUsers.User> member = member(user, id);
        if (member.isEmpty()) {
            return notFound(user, mode, csrf, id, response, model);
        }
        boolean removable = !id.equals(user.userId()) && !member.get().disabled();
        if (!"yes".equals(confirmed) && removable) {
            Chrome.add(model, user, mode, "team", csrf, merchants);
            model.addAttribute("member", MemberRow.of(member.get(), user));
            return "dashboard/team-remove";
        }
        if (removable) {
            // A stolen session must not remove the real owners (decisions §13).
            Optional<String> confirm = reauth.confirm(user, mode, "Removing " + member.get().email()
                    + " from the team", request, response, model);
            if (confirm.isPresent()) {
                return confirm.get();
            }
        }
        return switch (team.remove(user, mode, id, request)) {
            case Team.Outcome.Done() -> seeOther(request, "/dashboard/" + mode + "/team?done=removed");
            case Team.Outcome.Refused(String reason) -> refused(user, mode, csrf, reason, response, model);
        };
    }

    private String page(SignedInUser user, String mode, CsrfToken csrf, String email, String role,
                        Map<String, String> errors, String error, Model model) {
        Chrome.add(model, user, mode, "team", csrf, merchants);
        model.addAttribute("members", users.members(user.merchantId()).stream()
                .map(m -> MemberRow.of(m, user)).toList());
        model.addAttribute("email", email);
        model.addAttribute("role", role);
        model.addAttribute("roles", List.of(Role.values()).stream().map(Role::wire).toList());
        model.addAttribute("errors", errors);
        model.addAttribute("error", error);
        if (!model.containsAttribute("notice")) {
            model.addAttribute("notice", null);
        }
        if (!model.containsAttribute(INVITATION)) {
            model.addAttribute(INVITATION, null);
        }
        return "dashboard/team";
    }

    /** The link goes to the next page once (a flash attribute in the session), never into a URL or a log. */
    private static String shown(String mode, Team.Invitation invitation, HttpServletRequest request,
                                RedirectAttributes redirect) {
        redirect.addFlashAttribute(INVITATION, InvitationShown.of(invitation));
        return seeOther(request, "/dashboard/" + mode + "/team");
    }

    private static String seeOther(HttpServletRequest request, String path) {
        request.setAttribute(View.RESPONSE_STATUS_ATTRIBUTE, HttpStatus.SEE_OTHER);
        return "redirect:" + path;
    }

    private Optional<DashboardUsers.User> member(SignedInUser user, String id) {
        if (!id.startsWith("usr_") || id.length() > 64) {
            return Optional.empty();
        }
        return users.byIdAt(user.merchantId(), id);
    }

    private String notFound(SignedInUser user, String mode, CsrfToken csrf, String id, HttpServletResponse response,
                            Model model) {
        Chrome.add(model, user, mode, "team", csrf, merchants);
        response.setStatus(HttpStatus.NOT_FOUND.value());
        model.addAttribute("id", id);
        return "dashboard/member-not-found";
    }

    /** One member as the page lists them, with what the owner may do to them. */
    public record MemberRow(String id, String email, String role, String status, String statusWords,
                            String lastSignedIn, boolean secondFactor, boolean self, boolean canChangeRole,
                            boolean canReinvite, boolean canRemove) {

        static MemberRow of(DashboardUsers.Member m, SignedInUser viewer) {
            String status = m.removed() ? "removed" : m.invited() ? "invited" : "active";
            boolean self = m.id().equals(viewer.userId());
            return new MemberRow(m.id(), m.email(), m.role().wire(), status, words(status),
                    m.signedInAt() == null ? "Never" : HomeSummary.moment(m.signedInAt()), m.secondFactor(), self,
                    !m.removed(), m.invited() && !m.removed(), !m.removed() && !self);
        }

        static MemberRow of(DashboardUsers.User u, SignedInUser viewer) {
            return of(new DashboardUsers.Member(u.id(), u.email(), u.role(), u.passwordHash() == null,
                    u.disabled(), u.signedInAt(), false), viewer);
        }

        private static String words(String status) {
            return switch (status) {
                case "removed" -> "Removed";
                case "invited" -> "Invited, no password yet";
                default -> "Active";
            };
        }
    }

    /** The invitation just made, shown once: to whom, the link, until when, and whether the email went out. */
    public record InvitationShown(String email, String role, String url, String validUntil, String delivery,
                                  boolean emailed) implements Serializable {

        static InvitationShown of(Team.Invitation invitation) {
            String email = invitation.member().email();
            String delivery = switch (invitation.delivery()) {
                case SENT -> "We emailed the invitation to " + email + ". If it does not arrive, hand them this "
                        + "link yourself.";
                case NO_MAIL_SERVER -> "No email was sent: this service has no mail server configured "
                        + "(spring.mail.host). Hand " + email + " this link yourself, in a way only they can read.";
                case FAILED -> "The email could not be sent: the mail server did not take it. Hand " + email
                        + " this link yourself, in a way only they can read, or send a new link later.";
            };
            return new InvitationShown(email, invitation.member().role().wire(), invitation.url(),
                    HomeSummary.moment(invitation.validUntil()), delivery,
                    invitation.delivery() == TeamInvitationMail.Delivery.SENT);
        }
    }
}
