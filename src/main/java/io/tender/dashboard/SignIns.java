package io.tender.dashboard;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Signing in with email and password, and starting a signed-in session (also after a sign-in link). Every attempt,
 * failed or not, is in the audit log; failures count against the {@link SignInThrottle}.
 */
@Component
class SignIns {

    /** What a sign-in attempt came to; the page shows one generic error for every kind of failure. */
    sealed interface Outcome {
        record SignedIn(DashboardUsers.User user) implements Outcome {
        }

        /** The password was right and the user has a second factor: the code comes next. */
        record CodeNeeded(DashboardUsers.User user) implements Outcome {
        }

        record Refused() implements Outcome {
        }

        record Throttled() implements Outcome {
        }
    }

    private final DashboardUsers users;
    private final PasswordEncoder passwords;
    private final SignInThrottle throttle;
    private final AuditLog audit;
    private final HttpSessionSecurityContextRepository contexts;
    private final CsrfTokenRepository csrfTokens;
    private final DashboardSettings settings;
    private final SecondFactors secondFactors;
    // Checked when no account has the email, so that an unknown email takes as long as a wrong password.
    private final String unknownUserHash;

    SignIns(DashboardUsers users, PasswordEncoder passwords, SignInThrottle throttle, AuditLog audit,
            HttpSessionSecurityContextRepository contexts, CsrfTokenRepository csrfTokens,
            DashboardSettings settings, SecondFactors secondFactors) {
        this.secondFactors = secondFactors;
        this.users = users;
        this.passwords = passwords;
        this.throttle = throttle;
        this.audit = audit;
        this.contexts = contexts;
        this.csrfTokens = csrfTokens;
        this.settings = settings;
        this.unknownUserHash = passwords.encode("no account has this email, so no password matches");
    }

    Outcome attempt(String email, String password, HttpServletRequest request) {
        String address = request.getRemoteAddr();
        List<DashboardUsers.User> accounts = users.byEmail(email);
        String merchantId = accounts.isEmpty() ? null : accounts.getFirst().merchantId();
        String userId = accounts.size() == 1 ? accounts.getFirst().id() : null;
        if (!throttle.allows(email, address)) {
            audit.append(AuditLog.Entry.bySelf(merchantId, userId, email, "sign_in.throttled"), request);
            return new Outcome.Throttled();
        }
        Optional<DashboardUsers.User> match = Optional.empty();
        for (DashboardUsers.User account : accounts) {
            if (!account.disabled() && account.passwordHash() != null
                    && passwords.matches(password, account.passwordHash())) {
                match = Optional.of(account);
                break;
            }
        }
        if (accounts.isEmpty()) {
            passwords.matches(password, unknownUserHash);
        }
        if (match.isEmpty()) {
            throttle.failed(email, address);
            audit.append(AuditLog.Entry.bySelf(merchantId, userId, email, "sign_in.failed"), request);
            return new Outcome.Refused();
        }
        DashboardUsers.User user = match.get();
        if (secondFactors.enabled(user.id())) {
            audit.append(AuditLog.Entry.bySelf(user, "sign_in.password_accepted"), request);
            return new Outcome.CodeNeeded(user);
        }
        audit.append(AuditLog.Entry.bySelf(user, "sign_in.succeeded"), request);
        return new Outcome.SignedIn(user);
    }

    /**
     * The second step of a sign-in whose password was right: a current code of the user's authenticator, or one of
     * their recovery codes. Failures count against the same throttle as passwords.
     */
    Outcome secondStep(DashboardUsers.User user, String code, HttpServletRequest request) {
        String address = request.getRemoteAddr();
        if (!throttle.allows(user.email(), address)) {
            audit.append(AuditLog.Entry.bySelf(user, "sign_in.throttled"), request);
            return new Outcome.Throttled();
        }
        Optional<SecondFactors.Factor> factor = user.disabled() ? Optional.empty()
                : secondFactors.verify(user.id(), code);
        if (factor.isEmpty()) {
            throttle.failed(user.email(), address);
            audit.append(AuditLog.Entry.bySelf(user, "sign_in.code_failed"), request);
            return new Outcome.Refused();
        }
        String with = factor.get() == SecondFactors.Factor.CODE ? "code" : "recovery_code";
        audit.append(AuditLog.Entry.bySelf(user, "sign_in.succeeded").after("{\"with\":\"" + with + "\"}"),
                request);
        return new Outcome.SignedIn(user);
    }

    /**
     * Signs the user in on this request's browser: a new session id (no fixation), a new CSRF token, the idle limit
     * on the session and the sign-in time for the absolute one.
     */
    void start(DashboardUsers.User user, HttpServletRequest request, HttpServletResponse response) {
        users.signedIn(user.id());
        request.getSession(true);
        request.changeSessionId();
        csrfTokens.saveToken(null, request, response);
        HttpSession session = request.getSession();
        session.setMaxInactiveInterval((int) Math.max(1, settings.idleTimeout().toSeconds()));
        session.setAttribute(DashboardSecurity.SIGNED_IN_AT, Instant.now());
        SecurityContext context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(SignedInUser.of(user), null,
                List.of(new SimpleGrantedAuthority(user.role().authority()))));
        SecurityContextHolder.setContext(context);
        contexts.saveContext(context, request, response);
    }
}
