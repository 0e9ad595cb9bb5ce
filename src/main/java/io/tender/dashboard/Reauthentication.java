package io.tender.dashboard;

import io.tender.auth.Merchants;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.http.HttpStatus;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Component;
import org.springframework.ui.Model;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Re-entering the password (or a second-factor code) before a sensitive action (decisions §11, §13): creating or
 * rolling a live key, changing a role, inviting a member (any role, a new link too), removing a member, turning the
 * second factor on or off, adding a live webhook endpoint or rotating a live endpoint's secret. A confirmation counts
 * in this session for {@link DashboardSettings#reauthenticationWindow()}
 * ({@code TENDER_DASHBOARD_REAUTHENTICATION_WINDOW}, 5 minutes by default; zero asks at every such action).
 * <p>
 * A controller asks {@link #confirm} first thing, after the role rules of {@link DashboardSecurity} have let the
 * request through (so a developer asking for a live key is refused 403 and never asked for a password). Confirmed
 * recently, it answers empty and the action goes on. Otherwise it answers the view of a confirmation page that
 * carries the action's own fields as hidden inputs and posts them back to the same URL with the password: nothing
 * the person typed is lost, and the action runs in that same request once the password is right. Wrong passwords
 * and codes count against the sign-in throttle of the account and address, and land in the audit log.
 */
@Component
record Reauthentication(DashboardUsers users, PasswordEncoder passwords, SecondFactors secondFactors,
                        SignInThrottle throttle, AuditLog audit, Merchants merchants, Clock clock,
                        DashboardSettings settings) {

    static final String PASSWORD = "reauth_password";
    static final String CODE = "reauth_code";
    static final String WRONG = "That is not your password or a current code. Try again.";
    static final String THROTTLED = "Too many failed attempts. Wait a while, then try again.";

    private static final String CONFIRMED_AT = Reauthentication.class.getName() + ".confirmedAt";
    /** Never carried back into the form: the token has its own input, the secrets are typed again. */
    private static final Set<String> NOT_CARRIED = Set.of("_csrf", PASSWORD, CODE);

    /**
     * Empty when the user confirmed who they are within the window (or does so with this request's
     * {@code reauth_password} or {@code reauth_code}); otherwise the confirmation page's view, with its model and
     * status set, for the controller to answer instead of acting. {@code what} says the action in words ("Create a
     * live API key").
     */
    Optional<String> confirm(SignedInUser user, String mode, String what, HttpServletRequest request,
                             HttpServletResponse response, Model model) {
        HttpSession session = request.getSession(false);
        if (session != null && session.getAttribute(CONFIRMED_AT) instanceof Instant at
                && clock.instant().isBefore(at.plus(settings.reauthenticationWindow()))) {
            return Optional.empty();
        }
        String password = request.getParameter(PASSWORD);
        String code = request.getParameter(CODE);
        boolean typed = (password != null && !password.isEmpty()) || (code != null && !code.isBlank());
        String error = null;
        if (typed) {
            DashboardUsers.User account = users.byId(user.userId()).orElseThrow();
            String address = request.getRemoteAddr();
            Optional<SignInThrottle.Attempt> attempt = throttle.begin(account.email(), address);
            if (attempt.isEmpty()) {
                if (throttle.firstRefusal("reauthentication", account.email(), address)) {
                    audit.append(entry(user, "reauthentication.throttled", mode), request);
                }
                response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
                error = THROTTLED;
            } else if (matches(account, password, code)) {
                throttle.succeeded(attempt.get());
                request.getSession().setAttribute(CONFIRMED_AT, clock.instant());
                audit.append(entry(user, "reauthentication.succeeded", mode), request);
                return Optional.empty();
            } else {
                audit.append(entry(user, "reauthentication.failed", mode), request);
                response.setStatus(HttpStatus.UNAUTHORIZED.value());
                error = WRONG;
            }
        }
        Chrome.add(model, user, mode, "confirm", (CsrfToken) request.getAttribute(CsrfToken.class.getName()),
                merchants);
        model.addAttribute("what", what);
        model.addAttribute("action", request.getRequestURI());
        model.addAttribute("carried", carried(request.getParameterMap()));
        model.addAttribute("secondFactor", secondFactors.enabled(user.userId()));
        model.addAttribute("error", error);
        model.addAttribute("notAskedAgain", notAskedAgain());
        return Optional.of("dashboard/confirm-identity");
    }

    /**
     * {@link #confirm} in live mode only: adding a live webhook endpoint or rotating a live secret (decisions §13),
     * since whoever adds an endpoint or holds a new secret reads and can forge the merchant's live events. Test
     * endpoints do not ask.
     */
    Optional<String> confirmInLive(SignedInUser user, String mode, String what, HttpServletRequest request,
                                   HttpServletResponse response, Model model) {
        return mode.equals("live") ? confirm(user, mode, what, request, response, model) : Optional.empty();
    }

    /** What the confirmation page says of the window: "You will not be asked again for 5 minutes." */
    String notAskedAgain() {
        Duration window = settings.reauthenticationWindow();
        if (window.isZero()) {
            return "You will be asked again at the next such action.";
        }
        long minutes = window.toMinutes();
        String length = window.equals(Duration.ofMinutes(minutes))
                ? minutes + (minutes == 1 ? " minute" : " minutes")
                : window.toSeconds() + (window.toSeconds() == 1 ? " second" : " seconds");
        return "You will not be asked again for " + length + ".";
    }

    private boolean matches(DashboardUsers.User account, String password, String code) {
        if (password != null && !password.isEmpty() && password.length() <= 1024) {
            return account.passwordHash() != null && passwords.matches(password, account.passwordHash());
        }
        return code != null && secondFactors.verify(account.id(), code).isPresent();
    }

    /** The action's fields, each value in order, to post back with the password. */
    static List<Map.Entry<String, String>> carried(Map<String, String[]> parameters) {
        List<Map.Entry<String, String>> fields = new ArrayList<>();
        parameters.forEach((name, values) -> {
            if (!NOT_CARRIED.contains(name)) {
                for (String value : values) {
                    fields.add(Map.entry(name, value));
                }
            }
        });
        return fields;
    }

    private static AuditLog.Entry entry(SignedInUser user, String action, String mode) {
        return new AuditLog.Entry(user.merchantId(), user.userId(), user.email(), action, user.userId(), mode, null,
                null);
    }
}
