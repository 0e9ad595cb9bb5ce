package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.auth.Merchants;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

import java.util.Map;

/**
 * The sections the navigation names whose pages come in the next slices of issue 25: each says so in the dashboard's
 * own layout (and points to the API meanwhile) rather than leaving a person on an error.
 */
@Hidden
@Controller
class SectionsController {

    private static final Map<String, String> TITLES = Map.of(
            "customers", "Customers", "developers", "Developers", "links", "Payment links",
            "subscriptions", "Subscriptions", "redemptions", "Redemptions");

    private final Merchants merchants;

    SectionsController(Merchants merchants) {
        this.merchants = merchants;
    }

    @GetMapping("/dashboard/{mode:test|live}/{section:customers|developers|links|subscriptions|redemptions}")
    String section(@PathVariable String mode, @PathVariable String section,
                   @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, Model model) {
        Chrome.add(model, user, mode, section, csrf, merchants);
        model.addAttribute("title", TITLES.get(section));
        return "dashboard/coming";
    }
}
