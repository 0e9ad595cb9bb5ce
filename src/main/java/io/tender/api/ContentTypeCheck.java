package io.tender.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * A request's {@code Content-Type} names one concrete media type (RFC 9110 §8.3); a wildcard such as {@code *}{@code /*}
 * or {@code application/*} is a 415, as any other type the API does not read. Spring MVC itself throws an
 * {@link IllegalArgumentException} (a 500) when it reads the body of an endpoint that does not declare what it
 * consumes under such a type, so the check is made here, once, before any endpoint.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 2)
class ContentTypeCheck extends OncePerRequestFilter {

    private final Problems problems;

    ContentTypeCheck(Problems problems) {
        this.problems = problems;
    }

    static ApiException unsupported() {
        return new ApiException(ProblemCode.BAD_REQUEST, 415, "Send the body as application/json.", List.of(),
                Map.of("Accept", MediaType.APPLICATION_JSON_VALUE));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (wildcard(request.getContentType())) {
            problems.write(response, unsupported(), request);
            return;
        }
        chain.doFilter(request, response);
    }

    private static boolean wildcard(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return false;
        }
        try {
            MediaType type = MediaType.parseMediaType(contentType);
            return type.isWildcardType() || type.isWildcardSubtype();
        } catch (InvalidMediaTypeException e) {
            // Not a media type at all: Spring MVC answers that one with a 415 itself.
            return false;
        }
    }
}
