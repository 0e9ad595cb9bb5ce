package io.tender.api;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Decisions §12: authentication comes before content negotiation. Spring MVC refuses an {@code Accept} it cannot
 * serve (406) while it looks up the handler, before any interceptor has read the API key; the error handler asks
 * this first, so a request without a valid key to an endpoint that needs one is answered 401 whatever it accepts.
 * Implemented by the module that owns keys ({@code auth}).
 */
public interface AuthenticationFirst {

    /** Throws the {@link ApiException} (401, 400…) the request would have got for its key; returns if it has none. */
    void checkBeforeNegotiation(HttpServletRequest request);
}
