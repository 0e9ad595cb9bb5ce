package io.tender.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.MDC;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/** Gives every request an id, returned as {@code Request-Id}, put in every log line and in every problem body. */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestIds extends OncePerRequestFilter {

    public static final String HEADER = "Request-Id";
    private static final String ATTRIBUTE = RequestIds.class.getName();

    public static String of(HttpServletRequest request) {
        Object id = request.getAttribute(ATTRIBUTE);
        return id == null ? null : id.toString();
    }

    /** Gives the request a new id, also for requests that never reach this filter (see {@link ContainerErrors}). */
    static String assign(HttpServletRequest request, HttpServletResponse response) {
        String id = Ids.newId("req_");
        request.setAttribute(ATTRIBUTE, id);
        response.setHeader(HEADER, id);
        return id;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String id = assign(request, response);
        MDC.put("request_id", id);
        try {
            chain.doFilter(request, response);
        } finally {
            MDC.remove("request_id");
        }
    }
}
