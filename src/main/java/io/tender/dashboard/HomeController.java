package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.auth.Merchants;
import io.tender.payment.PaymentTotals;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * Home (decisions §11): the signed-in user's merchant's payments of the last 30 days in the mode of the URL
 * ({@code /dashboard/test}, {@code /dashboard/live}). The merchant is the user's, whatever the request says.
 */
@Hidden
@Controller
record HomeController(PaymentTotals totals, Merchants merchants) {

    @GetMapping("/dashboard/{mode:test|live}")
    String home(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, Model model) {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        var since = today.minusDays(HomeSummary.DAYS - 1).atStartOfDay().toInstant(ZoneOffset.UTC);
        model.addAttribute("summary", HomeSummary.of(totals.daily(user.merchantId(), mode, since), today));
        Chrome.add(model, user, mode, "home", csrf, merchants);
        return "dashboard/home";
    }
}
