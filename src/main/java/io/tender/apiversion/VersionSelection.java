package io.tender.apiversion;

import io.tender.api.ApiException;
import io.tender.auth.Authentication;
import io.tender.auth.Caller;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import java.util.Optional;

/**
 * Chooses the version of an authenticated API request (decisions §15), right after {@code auth}'s interceptor: the
 * {@code Tender-Version} header's, else the caller's merchant's pinned one; a malformed or unknown header is a 400
 * naming the versions. The choice goes on the answer's {@code Tender-Version} and is what the request body is read up
 * from ({@link RequestsReadUp}), what the answer is rendered in ({@link AnswersRenderDown}) and what its
 * Idempotency-Key is bound to.
 */
@Configuration(proxyBeanMethods = false)
class VersionSelection implements HandlerInterceptor, WebMvcConfigurer {

    private final PinnedVersions pinned;

    VersionSelection(PinnedVersions pinned) {
        this.pinned = pinned;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        // Authentication is registered with the default order 0: run after it, when the caller is known.
        registry.addInterceptor(this).order(1);
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        Optional<Caller> caller = Authentication.callerOf(request);
        if (!(handler instanceof HandlerMethod) || caller.isEmpty() || !VersionHeader.isApi(request.getRequestURI())) {
            return true;
        }
        if (request.getAttribute(RequestVersion.REFUSED) instanceof ApiException refused) {
            throw refused;
        }
        ApiVersion version = request.getAttribute(RequestVersion.REQUESTED) instanceof ApiVersion requested
                ? requested : pinned.of(caller.get().merchantId());
        request.setAttribute(RequestVersion.RESOLVED, version);
        response.setHeader(ApiVersions.HEADER, version.wire());
        return true;
    }
}
