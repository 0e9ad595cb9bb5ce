package io.tender.dashboard;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.web.servlet.DelegatingFilterProxyRegistrationBean;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.DefaultSecurityFilterChain;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextHolderFilter;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.csrf.HttpSessionCsrfTokenRepository;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;
import org.springframework.security.web.util.matcher.AnyRequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The dashboard's filter chain, and the promise that Spring Security changes nothing else (decisions §11).
 * <p>
 * Spring Security's filter is mapped to {@code /dashboard/*} only, so the API, the checkout, the public pages and
 * webhooks never pass through it (not even its firewall): their key authentication stays stateless and their
 * headers stay their own. Within that mapping, {@link #dashboard} holds the rules: sign-in pages open, everything
 * else signed in, POSTs of the money and developer actions for owners and developers, of the team and live keys
 * for owners; CSRF tokens on every POST (forms and htmx); sign-out by POST; a strict CSP; no caching. The catch-all
 * {@link #everythingElse} has no filter at all, for requests that reach Spring Security any other way (the
 * management port's context): no CSRF, session, request cache or header.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSecurity
class DashboardSecurity {

    /** No script or style but this origin's files, nothing framed, forms only to this origin. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
            + "frame-ancestors 'none'";

    static final String SIGNED_IN_AT = DashboardSecurity.class.getName() + ".signedInAt";
    static final String LAST_SEEN_AT = DashboardSecurity.class.getName() + ".lastSeenAt";

    @Bean
    @Order(1)
    SecurityFilterChain dashboard(HttpSecurity http, HttpSessionSecurityContextRepository contexts,
                                  CsrfTokenRepository csrfTokens, DashboardSettings settings,
                                  DashboardUsers users, Clock clock) throws Exception {
        http.securityMatcher("/dashboard/**")
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers("/dashboard/assets/**", "/dashboard/sign-in", "/dashboard/sign-in/code",
                                "/dashboard/link/*", DashboardErrorsController.FORBIDDEN)
                        .permitAll()
                        // The team, live keys and their rolls: owners only (decisions §11). The pattern covers the
                        // bare /dashboard/{mode}/team too ("/**" matches no segment at all).
                        .requestMatchers("/dashboard/*/team/**").hasRole(Role.OWNER.name())
                        .requestMatchers(HttpMethod.POST, "/dashboard/live/developers/**").hasRole(Role.OWNER.name())
                        // The API version every integration of the merchant reads (decisions §15): owners only.
                        .requestMatchers(HttpMethod.POST, "/dashboard/*/developers/api-version/**")
                        .hasRole(Role.OWNER.name())
                        // Money and developer actions: owners and developers; a viewer only reads.
                        .requestMatchers(HttpMethod.POST, "/dashboard/*/payments/**", "/dashboard/*/developers/**",
                                "/dashboard/*/subscriptions/**", "/dashboard/*/payment-requests/**",
                                "/dashboard/*/links/**")
                        .hasAnyRole(Role.OWNER.name(), Role.DEVELOPER.name())
                        .anyRequest().authenticated())
                .csrf(csrf -> csrf.csrfTokenRepository(csrfTokens))
                .securityContext(context -> context.securityContextRepository(contexts))
                // No saved request: a probe with an API key must not leave a session behind.
                .requestCache(cache -> cache.disable())
                .exceptionHandling(errors -> errors
                        .authenticationEntryPoint(signInPage())
                        .accessDeniedHandler(DashboardErrorsController.accessDenied()))
                .logout(logout -> logout.logoutUrl("/dashboard/sign-out")
                        .logoutSuccessUrl("/dashboard/sign-in?signed-out"))
                .headers(headers -> headers
                        .contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
                        .referrerPolicy(referrer -> referrer.policy(ReferrerPolicy.NO_REFERRER))
                        .frameOptions(frames -> frames.deny()))
                .addFilterBefore(new SessionLimits(settings.idleTimeout(), settings.absoluteTimeout(), clock),
                        SecurityContextHolderFilter.class)
                .addFilterAfter(new CurrentMembership(users, contexts), SecurityContextHolderFilter.class);
        return http.build();
    }

    /** Signed out: to the sign-in page by a relative Location, never one built from the request's Host (§12). */
    private static LoginUrlAuthenticationEntryPoint signInPage() {
        LoginUrlAuthenticationEntryPoint entryPoint = new LoginUrlAuthenticationEntryPoint("/dashboard/sign-in");
        entryPoint.setFavorRelativeUris(true);
        return entryPoint;
    }

    /** Everything that is not the dashboard: no filter, so nothing changes for it. */
    @Bean
    @Order(2)
    SecurityFilterChain everythingElse() {
        return new DefaultSecurityFilterChain(AnyRequestMatcher.INSTANCE, List.of());
    }

    @Bean
    HttpSessionSecurityContextRepository dashboardSecurityContexts() {
        return new HttpSessionSecurityContextRepository();
    }

    @Bean
    CsrfTokenRepository dashboardCsrfTokens() {
        return new HttpSessionCsrfTokenRepository();
    }

    /** bcrypt by default, and any hash format Spring Security knows for later upgrades ({@code {id}hash}). */
    @Bean
    PasswordEncoder dashboardPasswords() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    /**
     * Spring Security's filter on the dashboard's paths only: Boot's registration of it (its bean
     * {@code securityFilterChainRegistration}) maps it to every path.
     */
    @Bean
    static BeanPostProcessor securityFilterOnDashboardPathsOnly() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String name) throws BeansException {
                if (bean instanceof DelegatingFilterProxyRegistrationBean registration
                        && name.equals("securityFilterChainRegistration")) {
                    registration.setUrlPatterns(List.of("/dashboard/*"));
                }
                return bean;
            }
        };
    }

    /**
     * The session cookie is {@code Secure} unless the service's public URL is on this machine (a developer's http
     * localhost); HttpOnly, SameSite=Lax, its name and path are set in application.yml.
     */
    @Bean
    ServletContextInitializer dashboardCookieSecurity(Environment environment) {
        boolean secure = secureCookie(environment.getProperty("tender.public-base-url", ""));
        return servletContext -> servletContext.getSessionCookieConfig().setSecure(secure);
    }

    static boolean secureCookie(String publicBaseUrl) {
        if (publicBaseUrl == null || publicBaseUrl.isBlank()) {
            return false;
        }
        try {
            String host = URI.create(publicBaseUrl.trim()).getHost();
            if (host == null) {
                return true;
            }
            host = host.toLowerCase(Locale.ROOT);
            return !(host.equals("localhost") || host.endsWith(".localhost") || host.startsWith("127.")
                    || host.equals("[::1]") || host.equals("::1"));
        } catch (IllegalArgumentException e) {
            return true;
        }
    }

    /**
     * Keeps each signed-in request to who the user is now (decisions §11: removing a member ends their access at
     * once, and a new role applies at once): it reads the user's row by its id, one primary-key query, after the
     * session's security context is loaded. A removed (disabled) or deleted user's session is ended and the request
     * goes on signed out (a page answers the sign-in redirect); a changed role replaces the session's principal and
     * authority before any rule is checked.
     */
    static final class CurrentMembership extends OncePerRequestFilter {

        private final DashboardUsers users;
        private final HttpSessionSecurityContextRepository contexts;

        CurrentMembership(DashboardUsers users, HttpSessionSecurityContextRepository contexts) {
            this.users = users;
            this.contexts = contexts;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            if (request.getRequestURI().startsWith(request.getContextPath() + "/dashboard/assets/")) {
                chain.doFilter(request, response);
                return;
            }
            Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
            if (authentication != null && authentication.getPrincipal() instanceof SignedInUser signedIn) {
                var now = users.byId(signedIn.userId());
                if (now.isEmpty() || now.get().disabled()) {
                    HttpSession session = request.getSession(false);
                    if (session != null) {
                        session.invalidate();
                    }
                    SecurityContextHolder.clearContext();
                } else if (now.get().role() != signedIn.role()) {
                    SecurityContext context = SecurityContextHolder.createEmptyContext();
                    context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                            SignedInUser.of(now.get()), null,
                            List.of(new SimpleGrantedAuthority(now.get().role().authority()))));
                    SecurityContextHolder.setContext(context);
                    contexts.saveContext(context, request, response);
                }
            }
            chain.doFilter(request, response);
        }
    }

    /**
     * Ends a signed-in session 30 minutes (by default) after its last request and 12 hours after sign-in however busy
     * it is, both on the service's {@link Clock}, so that what decides is one clock a test can move. The servlet
     * container's own idle expiry ({@code setMaxInactiveInterval} at sign-in, the same length) only frees the memory of
     * sessions nobody comes back to. Runs before the security context is read, so an ended session's request goes on
     * as a signed-out one; every other request of a signed-in session counts as its last.
     */
    static final class SessionLimits extends OncePerRequestFilter {

        private final Duration idle;
        private final Duration absolute;
        private final Clock clock;

        SessionLimits(Duration idle, Duration absolute, Clock clock) {
            this.idle = idle;
            this.absolute = absolute;
            this.clock = clock;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            HttpSession session = request.getSession(false);
            if (session != null && session.getAttribute(SIGNED_IN_AT) instanceof Instant signedInAt) {
                Instant now = clock.instant();
                Instant lastSeen = session.getAttribute(LAST_SEEN_AT) instanceof Instant seen ? seen : signedInAt;
                if (!now.isBefore(signedInAt.plus(absolute)) || !now.isBefore(lastSeen.plus(idle))) {
                    session.invalidate();
                } else {
                    session.setAttribute(LAST_SEEN_AT, now);
                }
            }
            chain.doFilter(request, response);
        }
    }
}
