package io.tender.auth;

import io.tender.api.AuthenticationFirst;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import java.util.Collections;
import java.util.Enumeration;

/**
 * Authentication before content negotiation (decisions §12): when Spring MVC refused a request's {@code Accept},
 * finds the handler the request would have reached accepting anything, and runs the API key check on it exactly as
 * {@link Authentication} would have; a missing or bad key then answers 401 instead of 406.
 */
@Component
class KeyBeforeNegotiation implements AuthenticationFirst {

    private final Authentication authentication;
    // The handler mapping is built from the MVC configuration this module contributes to: looked up when needed.
    private final ObjectProvider<RequestMappingHandlerMapping> mappings;

    KeyBeforeNegotiation(Authentication authentication,
                         @Qualifier("requestMappingHandlerMapping") ObjectProvider<RequestMappingHandlerMapping> mappings) {
        this.authentication = authentication;
        this.mappings = mappings;
    }

    @Override
    public void checkBeforeNegotiation(HttpServletRequest request) {
        HttpServletRequest acceptingAnything = new HttpServletRequestWrapper(request) {
            @Override
            public String getHeader(String name) {
                return HttpHeaders.ACCEPT.equalsIgnoreCase(name) ? "*/*" : super.getHeader(name);
            }

            @Override
            public Enumeration<String> getHeaders(String name) {
                return HttpHeaders.ACCEPT.equalsIgnoreCase(name)
                        ? Collections.enumeration(java.util.List.of("*/*")) : super.getHeaders(name);
            }
        };
        HandlerExecutionChain chain;
        try {
            chain = mappings.getObject().getHandler(acceptingAnything);
        } catch (Exception e) {
            return; // no handler whatever the Accept: the 406 (or 404) stands
        }
        if (chain != null) {
            authentication.preHandle(request, null, chain.getHandler());
        }
    }
}
