package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.auth.Merchants;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.WebAttributes;
import org.springframework.security.web.access.AccessDeniedHandlerImpl;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * The dashboard's own error pages, in its layout, instead of the API's problem+json: a page that does not exist
 * (404) and an action the user's role may not take or a form whose CSRF token is missing or stale (403, through
 * {@link #accessDenied()}, the chain's access-denied handler). A person gets words and a way back.
 */
@Hidden
@Controller
class DashboardErrorsController {

    static final String FORBIDDEN = "/dashboard/forbidden";

    private final Merchants merchants;

    DashboardErrorsController(Merchants merchants) {
        this.merchants = merchants;
    }

    /** Spring Security's handler forwarding to {@link #FORBIDDEN} with the 403 status kept. */
    static AccessDeniedHandlerImpl accessDenied() {
        AccessDeniedHandlerImpl handler = new AccessDeniedHandlerImpl();
        handler.setErrorPage(FORBIDDEN);
        return handler;
    }

    /** Any GET under a mode that no page answers (the pages' own mappings are more specific and win). */
    @GetMapping("/dashboard/{mode:test|live}/**")
    String notFound(@PathVariable String mode, HttpServletRequest request, HttpServletResponse response, Model model) {
        response.setStatus(HttpStatus.NOT_FOUND.value());
        chrome(mode, request, model);
        return "dashboard/not-found";
    }

    @RequestMapping(FORBIDDEN)
    String forbidden(HttpServletRequest request, HttpServletResponse response, Model model) {
        response.setStatus(HttpStatus.FORBIDDEN.value());
        Object uri = request.getAttribute(RequestDispatcher.FORWARD_REQUEST_URI);
        String mode = uri != null && uri.toString().startsWith("/dashboard/live") ? "live" : "test";
        boolean staleForm = request.getAttribute(WebAttributes.ACCESS_DENIED_403) instanceof CsrfException;
        model.addAttribute("staleForm", staleForm);
        model.addAttribute("signedIn", chrome(mode, request, model));
        return "dashboard/forbidden";
    }

    /** The layout's model when someone is signed in; answers whether they are. */
    private boolean chrome(String mode, HttpServletRequest request, Model model) {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        CsrfToken csrf = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
        if (authentication != null && authentication.getPrincipal() instanceof SignedInUser user && csrf != null) {
            Chrome.add(model, user, mode, "error", csrf, merchants);
            return true;
        }
        return false;
    }
}
