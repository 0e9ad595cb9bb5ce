package io.tender.apiversion;

import io.tender.api.ApiException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code Tender-Version} from every API request, before anything else can answer it, and puts a
 * {@code Tender-Version} on every answer (errors too, even those filters write): the requested version, or the newest
 * until {@link VersionSelection} knows the caller's pinned one. A malformed or unknown version is refused only once the
 * caller is authenticated (an unauthenticated request gets its 401 whatever it asks for), so here it is only noted.
 * The dashboard, the hosted checkout and payment pages, the problem pages, the documents and the admin API are not the
 * versioned API and are left alone.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class VersionHeader extends OncePerRequestFilter {

    private static final List<String> NOT_THE_API = List.of("/dashboard", "/checkout", "/checkout-api",
            "/checkout-assets", "/checkout.js", "/pages", "/problems", "/admin", "/docs", "/openapi.json",
            "/swagger-ui", "/v3", "/webjars", "/favicon.ico");

    static boolean isApi(String path) {
        for (String prefix : NOT_THE_API) {
            if (path.equals(prefix) || path.startsWith(prefix + "/") || path.startsWith(prefix + ".")) {
                return false;
            }
        }
        return true;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !isApi(request.getRequestURI());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        List<String> asked = Collections.list(request.getHeaders(ApiVersions.HEADER));
        ApiVersion answered = ApiVersions.NEWEST;
        if (!asked.isEmpty()) {
            Optional<ApiVersion> known = asked.size() == 1 ? ApiVersions.known(asked.getFirst()) : Optional.empty();
            if (known.isPresent()) {
                answered = known.get();
                request.setAttribute(RequestVersion.REQUESTED, answered);
            } else {
                request.setAttribute(RequestVersion.REFUSED, refusal(asked));
            }
        }
        response.setHeader(ApiVersions.HEADER, answered.wire());
        chain.doFilter(request, response);
    }

    /** Names the known versions, and never echoes what was sent. */
    static ApiException refusal(List<String> asked) {
        String message;
        if (asked.size() > 1) {
            message = "is given more than once; send one of " + ApiVersions.knownList();
        } else if (ApiVersion.parse(asked.getFirst()).isEmpty()) {
            message = "must be a date, YYYY-MM-DD: one of " + ApiVersions.knownList();
        } else {
            message = "is not a version Tender serves; the versions are " + ApiVersions.knownList();
        }
        return ApiException.badRequest(ApiVersions.HEADER, message);
    }
}
