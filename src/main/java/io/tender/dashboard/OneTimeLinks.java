package io.tender.dashboard;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.Optional;

/**
 * The rules of one-time sign-in links (decisions §11, §13). A link exists only to let a user without a password
 * choose their first one:
 * <ul>
 *     <li>issuing a link for a user ends their earlier unused links, so a user has at most one that works (every start
 *     before the owner of {@code default} chooses a password prints a new link, and the one before stops working);</li>
 *     <li>using a link ends all the others;</li>
 *     <li>a link sets a password only for a user who has none, and is never issued for one who has: a link that meets
 *     a password (one from before these rules) is refused and ended, changing nothing;</li>
 *     <li>a removed member's links do nothing.</li>
 * </ul>
 * Both issuing and using lock the user's row first, so that they take turns: a link issued while another is being
 * used is either ended by that use or refused for the password it set.
 */
@Component
class OneTimeLinks {

    /** What choosing a password through a link came to. */
    sealed interface Choice {
        /** The password is set and the link used; the user's other links ended. */
        record PasswordSet(DashboardUsers.User user) implements Choice {
        }

        /** The user has a password: nothing changed, and the link no longer works. */
        record HasPassword(DashboardUsers.User user) implements Choice {
        }

        /** Used, expired, ended, unknown, or its user removed. */
        record Unusable() implements Choice {
        }
    }

    private final DashboardUsers users;
    private final SignInLinks links;
    private final TransactionTemplate tx;

    OneTimeLinks(DashboardUsers users, SignInLinks links, TransactionTemplate tx) {
        this.users = users;
        this.links = links;
        this.tx = tx;
    }

    /**
     * A new link's token for a user who has no password and is not removed, the user's earlier unused links ended;
     * empty (nothing issued) for anyone else. The caller builds the URL and shows it once.
     */
    Optional<String> issue(String userId) {
        return tx.execute(status -> {
            Optional<DashboardUsers.User> user = users.lock(userId);
            if (user.isEmpty() || user.get().passwordHash() != null || user.get().disabled()) {
                return Optional.empty();
            }
            links.revokeUnused(userId);
            return Optional.of(links.insert(userId));
        });
    }

    /** The user a link would set a password for, as they are now, if it still works; nothing is used. */
    Optional<DashboardUsers.User> userOf(String token) {
        return links.usableBy(token).flatMap(users::byId).filter(user -> !user.disabled());
    }

    /** Ends a link that met a user with a password (see {@link Choice.HasPassword}). */
    void refuse(String token) {
        links.revoke(token);
    }

    /** Sets the user's first password ({@code passwordHash}, encoded) through the link, in one transaction. */
    Choice choosePassword(String token, String passwordHash) {
        Optional<String> userId = links.usableBy(token);
        if (userId.isEmpty()) {
            return new Choice.Unusable();
        }
        return tx.execute(status -> {
            Optional<DashboardUsers.User> user = users.lock(userId.get());
            if (user.isEmpty() || user.get().disabled()) {
                return new Choice.Unusable();
            }
            if (user.get().passwordHash() != null) {
                links.revoke(token);
                return new Choice.HasPassword(user.get());
            }
            if (!links.use(token, user.get().id())) {
                return new Choice.Unusable();
            }
            links.revokeUnused(user.get().id());
            users.setFirstPassword(user.get().id(), passwordHash);
            return new Choice.PasswordSet(users.byId(user.get().id()).orElseThrow());
        });
    }
}
