package io.tender.dashboard;

import io.tender.auth.Merchants;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.ui.Model;

/** What the layout around every signed-in page needs: who, which merchant, which mode and page, and htmx's token. */
final class Chrome {

    private Chrome() {
    }

    static void add(Model model, SignedInUser user, String mode, String page, CsrfToken csrf, Merchants merchants) {
        model.addAttribute("user", user);
        model.addAttribute("merchantName", merchants.byId(user.merchantId()).map(Merchants.Merchant::name)
                .orElse(user.merchantId()));
        model.addAttribute("mode", mode);
        model.addAttribute("testMode", mode.equals("test"));
        model.addAttribute("page", page);
        // htmx sends this header with every request it makes (hx-headers on <body>): CSRF without inline script.
        model.addAttribute("htmxHeaders", "{\"" + csrf.getHeaderName() + "\": \"" + csrf.getToken() + "\"}");
    }
}
