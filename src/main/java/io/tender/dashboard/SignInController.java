package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;

import jakarta.servlet.http.HttpSession;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Getting into the dashboard: the sign-in form ({@code /dashboard/sign-in}), its second step for a code, and the
 * one-time links ({@code /dashboard/link/{token}}) that let a new user choose their first password and sign them in
 * (past the second factor only with its code). Passwords are read from the request here, never bound as handler
 * arguments (Spring logs those at TRACE).
 */
@Hidden
@Controller
record SignInController(SignIns signIns, OneTimeLinks links, DashboardUsers users, PasswordEncoder passwords,
                        AuditLog audit, SecondFactors secondFactors) {

    static final int MIN_PASSWORD = 12;
    static final int MAX_PASSWORD = 64;
    /** bcrypt reads 72 bytes at most; a longer password would be cut without a word. */
    private static final int MAX_PASSWORD_BYTES = 72;
    static final String GENERIC_ERROR = "That email and password do not match an account.";
    static final String THROTTLED = "Too many failed sign-ins. Wait a while, then try again.";
    static final String WRONG_CODE = "That code does not match. Type the code your app shows now, or a recovery code.";
    /** How long after a right password its code may come. */
    static final Duration CODE_WINDOW = Duration.ofMinutes(5);
    private static final String CODE_PENDING = SignInController.class.getName() + ".codePending";
    private static final String WITH_LINK = "{\"with\":\"sign_in_link\"}";

    /** A sign-in half done: the password was right at {@code since}; the second factor is awaited. */
    record CodePending(String userId, Instant since) implements Serializable {
    }

    @GetMapping("/dashboard")
    String start() {
        return "redirect:/dashboard/test";
    }

    @GetMapping("/dashboard/sign-in")
    String signInForm(HttpServletRequest request, Model model) {
        if (signedIn()) {
            return "redirect:/dashboard/test";
        }
        model.addAttribute("signedOut", request.getParameter("signed-out") != null);
        model.addAttribute("email", "");
        return "dashboard/sign-in";
    }

    @PostMapping("/dashboard/sign-in")
    String signIn(HttpServletRequest request, HttpServletResponse response, Model model) {
        String email = trimmed(request.getParameter("email"), 254);
        String password = Optional.ofNullable(request.getParameter("password")).orElse("");
        model.addAttribute("signedOut", false);
        model.addAttribute("email", email);
        if (email.isEmpty() || password.isEmpty() || password.length() > 1024) {
            response.setStatus(HttpStatus.UNAUTHORIZED.value());
            model.addAttribute("error", GENERIC_ERROR);
            return "dashboard/sign-in";
        }
        return switch (signIns.attempt(email, password, request)) {
            case SignIns.Outcome.SignedIn(DashboardUsers.User user) -> {
                signIns.start(user, request, response);
                yield "redirect:/dashboard/test";
            }
            case SignIns.Outcome.CodeNeeded(DashboardUsers.User user) -> awaitCode(user, request);
            case SignIns.Outcome.Refused() -> {
                response.setStatus(HttpStatus.UNAUTHORIZED.value());
                model.addAttribute("error", GENERIC_ERROR);
                yield "dashboard/sign-in";
            }
            case SignIns.Outcome.Throttled() -> {
                response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
                model.addAttribute("error", THROTTLED);
                yield "dashboard/sign-in";
            }
        };
    }

    @GetMapping("/dashboard/sign-in/code")
    String codeForm(HttpServletRequest request) {
        return pending(request).isEmpty() ? "redirect:/dashboard/sign-in" : "dashboard/sign-in-code";
    }

    @PostMapping("/dashboard/sign-in/code")
    String code(HttpServletRequest request, HttpServletResponse response, Model model) {
        Optional<DashboardUsers.User> user = pending(request).flatMap(p -> users.byId(p.userId()));
        if (user.isEmpty()) {
            return "redirect:/dashboard/sign-in";
        }
        return switch (signIns.secondStep(user.get(), request.getParameter("code"), request)) {
            case SignIns.Outcome.SignedIn(DashboardUsers.User signedIn) -> {
                request.getSession().removeAttribute(CODE_PENDING);
                signIns.start(signedIn, request, response);
                yield "redirect:/dashboard/test";
            }
            case SignIns.Outcome.Throttled() -> {
                response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
                model.addAttribute("error", THROTTLED);
                yield "dashboard/sign-in-code";
            }
            default -> {
                response.setStatus(HttpStatus.UNAUTHORIZED.value());
                model.addAttribute("error", WRONG_CODE);
                yield "dashboard/sign-in-code";
            }
        };
    }

    /** The password was right (or has just been chosen) and the user has a second factor: its code comes next. */
    private static String awaitCode(DashboardUsers.User user, HttpServletRequest request) {
        // A new session id for the half-signed-in state too; nothing is authorised by it but the code form.
        request.getSession(true);
        request.changeSessionId();
        request.getSession().setAttribute(CODE_PENDING, new CodePending(user.id(), Instant.now()));
        return "redirect:/dashboard/sign-in/code";
    }

    /** The user whose password was right and whose code is awaited, for {@link #CODE_WINDOW} after the password. */
    private static Optional<CodePending> pending(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null && session.getAttribute(CODE_PENDING) instanceof CodePending pending) {
            if (Instant.now().isBefore(pending.since().plus(CODE_WINDOW))) {
                return Optional.of(pending);
            }
            session.removeAttribute(CODE_PENDING);
        }
        return Optional.empty();
    }

    @GetMapping("/dashboard/link/{token}")
    String linkForm(@PathVariable String token, HttpServletResponse response, Model model) {
        Optional<DashboardUsers.User> user = links.userOf(token);
        if (user.isEmpty()) {
            return linkUnusable(response);
        }
        if (user.get().passwordHash() != null) {
            // Shown, not acted on: a GET changes nothing (mail scanners open links too).
            return hasPassword(user.get(), response, model);
        }
        model.addAttribute("user", user.get());
        model.addAttribute("token", token);
        return "dashboard/set-password";
    }

    /**
     * Chooses the first password through a link (decisions §13): only for a user who has none; then signs them in,
     * or, when their second factor is on, asks for its code first. A link that meets a password changes nothing and
     * ends.
     */
    @PostMapping("/dashboard/link/{token}")
    String setPassword(@PathVariable String token, HttpServletRequest request, HttpServletResponse response,
                       Model model) {
        Optional<DashboardUsers.User> user = links.userOf(token);
        if (user.isEmpty()) {
            return linkUnusable(response);
        }
        if (user.get().passwordHash() != null) {
            links.refuse(token);
            return refused(user.get(), request, response, model);
        }
        String password = Optional.ofNullable(request.getParameter("password")).orElse("");
        String confirmation = Optional.ofNullable(request.getParameter("confirmation")).orElse("");
        String problem = passwordProblem(password, user.get().email());
        String confirmationProblem = problem == null && !password.equals(confirmation)
                ? "The two passwords are not the same." : null;
        if (problem != null || confirmationProblem != null) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            model.addAttribute("user", user.get());
            model.addAttribute("token", token);
            model.addAttribute("passwordError", problem);
            model.addAttribute("confirmationError", confirmationProblem);
            return "dashboard/set-password";
        }
        // Used here, under the user's lock: of two posts of one link, one sets the password.
        return switch (links.choosePassword(token, passwords.encode(password))) {
            case OneTimeLinks.Choice.Unusable() -> linkUnusable(response);
            case OneTimeLinks.Choice.HasPassword(DashboardUsers.User has) -> refused(has, request, response, model);
            case OneTimeLinks.Choice.PasswordSet(DashboardUsers.User set) -> {
                audit.append(AuditLog.Entry.ofOwnAccount(set, "password.set", null), request);
                if (secondFactors.enabled(set.id())) {
                    audit.append(AuditLog.Entry.ofOwnAccount(set, "sign_in.password_accepted", WITH_LINK), request);
                    yield awaitCode(set, request);
                }
                audit.append(AuditLog.Entry.ofOwnAccount(set, "sign_in.succeeded", WITH_LINK), request);
                signIns.start(set, request, response);
                yield "redirect:/dashboard/test";
            }
        };
    }

    private String refused(DashboardUsers.User user, HttpServletRequest request, HttpServletResponse response,
                           Model model) {
        audit.append(AuditLog.Entry.ofOwnAccount(user, "sign_in_link.refused", null), request);
        return hasPassword(user, response, model);
    }

    private static String hasPassword(DashboardUsers.User user, HttpServletResponse response, Model model) {
        response.setStatus(HttpStatus.CONFLICT.value());
        model.addAttribute("email", user.email());
        return "dashboard/link-has-password";
    }

    /** Why a new password is refused, in words for the form, or null. */
    static String passwordProblem(String password, String email) {
        if (password.length() < MIN_PASSWORD) {
            return "Use at least " + MIN_PASSWORD + " characters.";
        }
        if (password.length() > MAX_PASSWORD || password.getBytes(StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
            return "Use at most " + MAX_PASSWORD + " characters.";
        }
        if (password.equalsIgnoreCase(email)) {
            return "Your password cannot be your email address.";
        }
        return null;
    }

    private static String linkUnusable(HttpServletResponse response) {
        response.setStatus(HttpStatus.NOT_FOUND.value());
        return "dashboard/link-unusable";
    }

    private static boolean signedIn() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication != null && authentication.getPrincipal() instanceof SignedInUser;
    }

    private static String trimmed(String value, int max) {
        String trimmed = value == null ? "" : value.strip();
        return trimmed.length() > max ? trimmed.substring(0, max) : trimmed;
    }
}
