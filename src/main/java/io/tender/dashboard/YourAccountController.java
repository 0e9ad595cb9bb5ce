package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.auth.Merchants;
import io.tender.qr.QrCodes;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A user's own account page ({@code /dashboard/{mode}/account}): who they are, and their second factor (decisions
 * §11): turning it on (after re-entering the password, a secret shown as an {@code otpauth://} QR code and as text,
 * confirmed by a first code, then ten recovery codes shown once) and off (after re-entering the password or a code);
 * both ask through {@link Reauthentication}.
 * Every user has this page, whatever their role.
 */
@Hidden
@Controller
record YourAccountController(SecondFactors secondFactors, Reauthentication reauth, Merchants merchants, QrCodes qr,
                             AuditLog audit, DashboardUsers users) {

    /** The secret being set up, kept in the session (never the database) until a code confirms it. */
    static final String PENDING_SECRET = YourAccountController.class.getName() + ".pendingSecret";
    private static final Map<String, String> DONE = Map.of(
            "off", "Two-step sign-in is off. You sign in with your password alone.");

    @GetMapping("/dashboard/{mode:test|live}/account")
    String account(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf,
                   @RequestParam(name = "done", required = false) String done, Model model) {
        Chrome.add(model, user, mode, "account", csrf, merchants);
        boolean on = secondFactors.enabled(user.userId());
        model.addAttribute("secondFactor", on);
        model.addAttribute("recoveryCodesLeft", on ? secondFactors.recoveryCodesLeft(user.userId()) : 0);
        model.addAttribute("signedInAt", users.byId(user.userId()).map(DashboardUsers.User::signedInAt)
                .map(HomeSummary::moment).orElse(null));
        model.addAttribute("notice", done == null ? null : DONE.get(done));
        return "dashboard/account";
    }

    /**
     * Starts setting up, once the password is re-entered (decisions §13: a stolen session must not lock the owner out
     * behind the thief's authenticator): a new secret in the session, then the setup page (a GET, so a reload shows the
     * same). Only this request makes a secret, so the code that turns the factor on comes after the password.
     */
    @PostMapping("/dashboard/{mode:test|live}/account/second-factor/start")
    String start(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, HttpServletRequest request,
                 HttpServletResponse response, Model model) {
        if (secondFactors.enabled(user.userId())) {
            return "redirect:/dashboard/" + mode + "/account";
        }
        Optional<String> confirm = reauth.confirm(user, mode, "Turning on two-step sign-in", request, response, model);
        if (confirm.isPresent()) {
            return confirm.get();
        }
        request.getSession().setAttribute(PENDING_SECRET, SecondFactors.newSecret());
        return "redirect:/dashboard/" + mode + "/account/second-factor";
    }

    @GetMapping("/dashboard/{mode:test|live}/account/second-factor")
    String setup(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf,
                 HttpServletRequest request, Model model) {
        Optional<String> secret = pendingSecret(request);
        if (secret.isEmpty() || secondFactors.enabled(user.userId())) {
            return "redirect:/dashboard/" + mode + "/account";
        }
        return setupPage(mode, user, csrf, secret.get(), null, model);
    }

    @PostMapping("/dashboard/{mode:test|live}/account/second-factor/enable")
    String enable(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf,
                  HttpServletRequest request, HttpServletResponse response, Model model) {
        Optional<String> secret = pendingSecret(request);
        if (secret.isEmpty() || secondFactors.enabled(user.userId())) {
            return "redirect:/dashboard/" + mode + "/account";
        }
        Optional<List<String>> codes = secondFactors.enable(user.userId(), secret.get(), request.getParameter("code"));
        if (codes.isEmpty()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            return setupPage(mode, user, csrf, secret.get(),
                    "That code does not match. Type the six digits your app shows now.", model);
        }
        request.getSession().removeAttribute(PENDING_SECRET);
        audit.append(new AuditLog.Entry(user.merchantId(), user.userId(), user.email(), "second_factor.enabled",
                user.userId(), mode, "{\"second_factor\":false}", "{\"second_factor\":true}"), request);
        Chrome.add(model, user, mode, "account", csrf, merchants);
        model.addAttribute("codes", codes.get());
        return "dashboard/recovery-codes";
    }

    @PostMapping("/dashboard/{mode:test|live}/account/second-factor/disable")
    String disable(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, HttpServletRequest request,
                   HttpServletResponse response, Model model) {
        if (!secondFactors.enabled(user.userId())) {
            return "redirect:/dashboard/" + mode + "/account";
        }
        Optional<String> confirm = reauth.confirm(user, mode, "Turning off two-step sign-in", request, response, model);
        if (confirm.isPresent()) {
            return confirm.get();
        }
        secondFactors.disable(user.userId());
        audit.append(new AuditLog.Entry(user.merchantId(), user.userId(), user.email(), "second_factor.disabled",
                user.userId(), mode, "{\"second_factor\":true}", "{\"second_factor\":false}"), request);
        response.setStatus(HttpStatus.SEE_OTHER.value());
        response.setHeader(HttpHeaders.LOCATION, "/dashboard/" + mode + "/account?done=off");
        return null;
    }

    private String setupPage(String mode, SignedInUser user, CsrfToken csrf, String secret, String error,
                             Model model) {
        Chrome.add(model, user, mode, "account", csrf, merchants);
        String merchantName = (String) model.getAttribute("merchantName");
        String uri = SecondFactors.otpauthUri(secret, user.email(), merchantName);
        model.addAttribute("qr", qr.svgDataUri(uri, 220));
        model.addAttribute("secret", SecondFactors.grouped(secret));
        model.addAttribute("error", error);
        return "dashboard/second-factor-setup";
    }

    private static Optional<String> pendingSecret(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session == null ? Optional.empty()
                : Optional.ofNullable((String) session.getAttribute(PENDING_SECRET));
    }
}
