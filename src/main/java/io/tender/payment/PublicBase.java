package io.tender.payment;

import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;

/**
 * The service's public base URL, which a session's {@code session_url} starts with: {@code tender.public-base-url}
 * ({@code TENDER_PUBLIC_BASE_URL}) in production, else {@code http://localhost:<port>} for a developer's machine.
 * Collect's other public pages (a payment page's {@code page_url}) start with it too.
 * Payment requests' links are checkout URLs ({@link #checkoutUrl}).
 */
@Component
public class PublicBase {

    private final String configured;
    private final Environment environment;

    PublicBase(PublicBaseSettings settings, Environment environment) {
        String configured = settings.publicBaseUrl();
        this.configured = configured.endsWith("/") ? configured.substring(0, configured.length() - 1) : configured;
        this.environment = environment;
    }

    public String url() {
        if (StringUtils.hasText(configured)) {
            return configured;
        }
        return "http://localhost:" + environment.getProperty("local.server.port",
                environment.getProperty("server.port", "8080"));
    }

    /** {@code tender.public-base-url} as the operator set it (without a trailing slash), or empty when unset. */
    public java.util.Optional<String> configured() {
        return StringUtils.hasText(configured) ? java.util.Optional.of(configured) : java.util.Optional.empty();
    }

    /** A session's hosted checkout ({@code session_url}) by its {@code ckt_} id. */
    public String checkoutUrl(String checkoutSessionId) {
        return url() + "/checkout/" + checkoutSessionId;
    }
}
