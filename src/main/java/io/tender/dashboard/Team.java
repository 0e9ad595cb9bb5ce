package io.tender.dashboard;

import io.tender.api.Timestamps;
import io.tender.auth.Merchants;
import io.tender.notify.TeamInvitationMail;
import io.tender.payment.PublicBase;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The team of a merchant (decisions §11, owners only): inviting someone by email with a role, a new link for who has
 * not accepted yet, changing a role, removing a member. Each change is one transaction with its audit row
 * ({@code team.invited}, {@code team.role_changed}, {@code team.removed}, the member's id as target). A merchant
 * always keeps an owner: the owners' rows are locked while a role change or removal checks that another remains.
 * A changed or removed member's sessions follow at their next request ({@code DashboardSecurity.CurrentMembership}).
 */
@Component
class Team {

    /** What became of a change: done, or refused with the reason in words. */
    sealed interface Outcome {
        record Done() implements Outcome {
        }

        record Refused(String reason) implements Outcome {
        }
    }

    /** An invitation made: the member, their one-time link (shown once) and whether the email went out. */
    record Invitation(DashboardUsers.User member, String url, Instant validUntil,
                      TeamInvitationMail.Delivery delivery) {
    }

    private final DashboardUsers users;
    private final SignInLinks links;
    private final OneTimeLinks oneTimeLinks;
    private final AuditLog audit;
    private final TeamInvitationMail mail;
    private final Merchants merchants;
    private final PublicBase publicBase;
    private final DashboardSettings settings;
    private final TransactionTemplate tx;
    private final JsonMapper json;

    Team(DashboardUsers users, SignInLinks links, OneTimeLinks oneTimeLinks, AuditLog audit, TeamInvitationMail mail,
         Merchants merchants, PublicBase publicBase, DashboardSettings settings, TransactionTemplate tx,
         JsonMapper json) {
        this.users = users;
        this.links = links;
        this.oneTimeLinks = oneTimeLinks;
        this.audit = audit;
        this.mail = mail;
        this.merchants = merchants;
        this.publicBase = publicBase;
        this.settings = settings;
        this.tx = tx;
        this.json = json;
    }

    /**
     * Makes the user (no password yet) and their link, and emails it. Throws {@link DashboardUsers.EmailTaken} when
     * the merchant has a user with this email, and then makes nothing.
     */
    Invitation invite(SignedInUser by, String mode, String email, Role role, HttpServletRequest request) {
        record Made(DashboardUsers.User user, String token) {
        }
        Made made = tx.execute(status -> {
            DashboardUsers.User user = users.create(by.merchantId(), email, role);
            String token = oneTimeLinks.issue(user.id()).orElseThrow();
            audit.append(entry(by, "team.invited", user.id(), mode, null,
                    state("email", user.email(), "role", role.wire())), request);
            return new Made(user, token);
        });
        return send(by, made.user(), made.token());
    }

    /**
     * A new link for a member who has not chosen a password yet ({@link #status} {@code invited}); their earlier links
     * stop working. Empty, nothing made, when they have chosen one meanwhile (or were removed).
     */
    Optional<Invitation> reinvite(SignedInUser by, String mode, DashboardUsers.User member,
                                  HttpServletRequest request) {
        Optional<String> token = tx.execute(status -> {
            Optional<String> issued = oneTimeLinks.issue(member.id());
            issued.ifPresent(made -> audit.append(entry(by, "team.invited", member.id(), mode, null,
                    state("email", member.email(), "role", member.role().wire(), "again", true)), request));
            return issued;
        });
        return token.map(made -> send(by, member, made));
    }

    Outcome changeRole(SignedInUser by, String mode, String memberId, Role role, HttpServletRequest request) {
        return tx.execute(status -> {
            List<String> owners = users.lockOwners(by.merchantId());
            DashboardUsers.User member = users.byIdAt(by.merchantId(), memberId).orElseThrow();
            if (member.disabled()) {
                return new Outcome.Refused(member.email() + " was removed from the team.");
            }
            if (member.role() == role) {
                return new Outcome.Done();
            }
            if (member.role() == Role.OWNER && owners.equals(List.of(member.id()))) {
                return new Outcome.Refused(lastOwner(by, member) + " Make someone else an owner first.");
            }
            users.setRole(member.id(), role);
            audit.append(entry(by, "team.role_changed", member.id(), mode, state("role", member.role().wire()),
                    state("role", role.wire())), request);
            return new Outcome.Done();
        });
    }

    Outcome remove(SignedInUser by, String mode, String memberId, HttpServletRequest request) {
        if (memberId.equals(by.userId())) {
            return new Outcome.Refused("You cannot remove yourself. Another owner can remove you.");
        }
        return tx.execute(status -> {
            List<String> owners = users.lockOwners(by.merchantId());
            DashboardUsers.User member = users.byIdAt(by.merchantId(), memberId).orElseThrow();
            if (member.disabled()) {
                return new Outcome.Done();
            }
            if (member.role() == Role.OWNER && owners.equals(List.of(member.id()))) {
                return new Outcome.Refused(lastOwner(by, member) + " A merchant always keeps one.");
            }
            users.disable(member.id());
            links.revokeUnused(member.id());
            audit.append(entry(by, "team.removed", member.id(), mode,
                    state("email", member.email(), "role", member.role().wire(), "status", status(member)),
                    state("status", "removed")), request);
            return new Outcome.Done();
        });
    }

    /** A member's status in words: invited (no password yet), active, or removed. */
    static String status(DashboardUsers.User member) {
        return member.disabled() ? "removed" : member.passwordHash() == null ? "invited" : "active";
    }

    private Invitation send(SignedInUser by, DashboardUsers.User member, String token) {
        String url = UserAdmin.signInUrl(publicBase, token);
        Instant validUntil = Timestamps.now().plus(settings.signInLinkValidity());
        String merchantName = merchants.byId(by.merchantId()).map(Merchants.Merchant::name).orElse(by.merchantId());
        var delivery = mail.send(new TeamInvitationMail.Invitation(member.email(), merchantName, by.email(),
                member.role().wire(), url, validUntil));
        return new Invitation(member, url, validUntil, delivery);
    }

    private static String lastOwner(SignedInUser by, DashboardUsers.User member) {
        return (member.id().equals(by.userId()) ? "You are" : member.email() + " is") + " the only owner.";
    }

    private String state(Object... pairs) {
        Map<String, Object> state = new LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            state.put((String) pairs[i], pairs[i + 1]);
        }
        return json.writeValueAsString(state);
    }

    private static AuditLog.Entry entry(SignedInUser by, String action, String target, String mode, String before,
                                        String after) {
        return new AuditLog.Entry(by.merchantId(), by.userId(), by.email(), action, target, mode, before, after);
    }
}
