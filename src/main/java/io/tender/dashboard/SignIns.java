package io.tender.dashboard;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Signing in with email and password, and starting a signed-in session (also after a sign-in link). Every attempt for
 * an email a user has, failed or not, is in the audit log (a refused streak once per window); failures count against
 * the {@link SignInThrottle}.
 */
@Component
class SignIns {

    private static final Logger log = LoggerFactory.getLogger(SignIns.class);

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
    private final Clock clock;
    // Checked when no account has the email, so that an unknown email takes as long as a wrong password.
    private final String unknownUserHash;

    SignIns(DashboardUsers users, PasswordEncoder passwords, SignInThrottle throttle, AuditLog audit,
            HttpSessionSecurityContextRepository contexts, CsrfTokenRepository csrfTokens,
            DashboardSettings settings, SecondFactors secondFactors, Clock clock) {
        this.secondFactors = secondFactors;
        this.clock = clock;
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
        Optional<SignInThrottle.Attempt> attempt = throttle.begin(email, address);
        if (attempt.isEmpty()) {
            if (throttle.firstRefusal("sign_in", email, address)) {
                record(accounts, email, "sign_in.throttled", request);
            }
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
            record(accounts, email, "sign_in.failed", request);
            return new Outcome.Refused();
        }
        throttle.succeeded(attempt.get());
        DashboardUsers.User user = match.get();
        if (secondFactors.enabled(user.id())) {
            audit.append(AuditLog.Entry.ofOwnAccount(user, "sign_in.password_accepted", null), request);
            return new Outcome.CodeNeeded(user);
        }
        audit.append(AuditLog.Entry.ofOwnAccount(user, "sign_in.succeeded", null), request);
        return new Outcome.SignedIn(user);
    }

    /**
     * The second step of a sign-in whose password was right: a current code of the user's authenticator, or one of
     * their recovery codes. Failures count against the same throttle as passwords.
     */
    Outcome secondStep(DashboardUsers.User user, String code, HttpServletRequest request) {
        String address = request.getRemoteAddr();
        Optional<SignInThrottle.Attempt> attempt = throttle.begin(user.email(), address);
        if (attempt.isEmpty()) {
            if (throttle.firstRefusal("sign_in_code", user.email(), address)) {
                audit.append(AuditLog.Entry.ofOwnAccount(user, "sign_in.throttled", null), request);
            }
            return new Outcome.Throttled();
        }
        Optional<SecondFactors.Factor> factor = user.disabled() ? Optional.empty()
                : secondFactors.verify(user.id(), code);
        if (factor.isEmpty()) {
            audit.append(AuditLog.Entry.ofOwnAccount(user, "sign_in.code_failed", null), request);
            return new Outcome.Refused();
        }
        throttle.succeeded(attempt.get());
        String with = factor.get() == SecondFactors.Factor.CODE ? "code" : "recovery_code";
        audit.append(AuditLog.Entry.ofOwnAccount(user, "sign_in.succeeded", "{\"with\":\"" + with + "\"}"), request);
        return new Outcome.SignedIn(user);
    }

    /**
     * A failed or refused sign-in, in the audit log of every merchant with a user of this email (decisions §13: an
     * email the users of several merchants share is theirs at each); an email that no user has is in no merchant's
     * log, only in the service's own (its message escaped like every log message, {@code api.OneLineMessage}), so
     * that nobody outside can write rows into a table that keeps them for ever.
     */
    private void record(List<DashboardUsers.User> accounts, String email, String action,
                        HttpServletRequest request) {
        if (accounts.isEmpty()) {
            log.info("Dashboard {} for an email no user has: {} from {}", action, email, request.getRemoteAddr());
            return;
        }
        // An email is unique per merchant: one row for each merchant.
        for (DashboardUsers.User account : accounts) {
            audit.append(AuditLog.Entry.ofOwnAccount(account, action, null), request);
        }
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
        Instant now = clock.instant();
        session.setAttribute(DashboardSecurity.SIGNED_IN_AT, now);
        session.setAttribute(DashboardSecurity.LAST_SEEN_AT, now);
        SecurityContext context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(SignedInUser.of(user), null,
                List.of(new SimpleGrantedAuthority(user.role().authority()))));
        SecurityContextHolder.setContext(context);
        contexts.saveContext(context, request, response);
    }
}
