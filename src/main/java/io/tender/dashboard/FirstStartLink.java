package io.tender.dashboard;

import io.tender.auth.Merchants;
import io.tender.payment.PublicBase;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * The way into the dashboard on a new installation (decisions §11, §13): after start-up has made the merchant
 * {@code default} and printed its test key, this prints, the same way, a one-time sign-in link for that merchant's
 * owner. It prints a fresh link at every start until the owner has set a password, so a lost or expired link is
 * replaced by restarting, and the fresh link ends the one before ({@link OneTimeLinks#issue}): there is never more
 * than one that works. Nothing is printed once the owner has a password or has signed in.
 */
@Component
record FirstStartLink(Merchants merchants, DashboardUsers users, OneTimeLinks links, PublicBase publicBase,
                      DashboardSettings settings) {

    @EventListener(ApplicationReadyEvent.class)
    void printIfTheOwnerNeverSignedIn() {
        var merchant = merchants.byName("default");
        if (merchant.isEmpty()) {
            return;
        }
        String merchantId = merchant.get().id();
        DashboardUsers.User owner = users.firstOwner(merchantId).orElseGet(() -> {
            try {
                return users.create(merchantId, settings.ownerEmail(), Role.OWNER);
            } catch (DashboardUsers.EmailTaken e) {
                // Another instance made the owner at the same moment.
                return users.firstOwner(merchantId).orElseThrow();
            }
        });
        if (owner.passwordHash() != null || owner.signedInAt() != null) {
            return;
        }
        Optional<String> token = links.issue(owner.id());
        if (token.isEmpty()) {
            return; // the owner chose a password meanwhile (on another instance)
        }
        String url = UserAdmin.signInUrl(publicBase, token.get());
        System.out.printf("""

                ==============================================================================
                 The merchant dashboard: sign in as the owner of "default" (%s)
                 with this one-time link, valid for %d hours, to choose a password:

                     %s

                 Until a password is set, each start prints a new link and the one
                 before stops working.
                ==============================================================================

                """, owner.email(), settings.signInLinkValidity().toHours(), url);
    }
}
