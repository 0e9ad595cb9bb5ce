package io.tender.auth;

import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
import io.tender.ratelimit.RateLimits;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Component;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The operators' admin API's credential ({@code TENDER_ADMIN_TOKEN}) and its way of naming merchants, for every
 * {@code /admin} controller: this module's {@link MerchantAdmin} and the dashboard's users endpoint. Without a token
 * the admin API does not exist (404).
 */
@Component
public class AdminAccess {

    private final RateLimits rateLimits;
    private final Merchants merchants;
    private final byte[] token;

    AdminAccess(RateLimits rateLimits, Merchants merchants, AuthSettings settings) {
        this.rateLimits = rateLimits;
        this.merchants = merchants;
        this.token = settings.adminToken().getBytes(StandardCharsets.UTF_8);
    }

    /** Refuses the request unless it carries the admin token as its bearer credential. */
    public void authorize(HttpServletRequest request) {
        if (token.length == 0) {
            throw ApiException.notFound("path");
        }
        String header = Authentication.authorizationHeader(request);
        boolean presented = header != null && !header.isBlank();
        if (presented) {
            // Guessing the token counts against the client address like guessing API keys (decisions §9).
            rateLimits.refuseIfFailingAuthentication(request);
        }
        byte[] given = header != null && header.startsWith("Bearer ")
                ? header.substring(7).trim().getBytes(StandardCharsets.UTF_8) : new byte[0];
        if (!MessageDigest.isEqual(given, token)) {
            if (presented) {
                rateLimits.failedAuthentication(request);
            }
            throw new ApiException(ProblemCode.UNAUTHORIZED, "The admin token is missing or wrong.");
        }
    }

    /** The merchant of an admin path, by id or name; 404 {@code resource_not_found} when there is none. */
    public Merchants.Merchant merchant(String idOrName) {
        return merchants.byId(idOrName).or(() -> merchants.byName(idOrName))
                .orElseThrow(() -> ApiException.notFound("merchant"));
    }
}
