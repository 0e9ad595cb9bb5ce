package io.tender.auth;

import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
import io.tender.ratelimit.RateLimits;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.MDC;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerInterceptor;

import java.util.Enumeration;

/**
 * Turns {@code Authorization: Bearer <key>} into the {@link Caller} that controller methods take as a parameter.
 * Any controller method with a {@code Caller} parameter requires a key; public keys pass only where the method is
 * marked {@link PublicKeyAllowed} (decisions §1). Applies the rate limits of decisions §9 that concern every
 * request: failed authentications per client address, and requests per key.
 */
@Component
public class Authentication implements HandlerInterceptor, HandlerMethodArgumentResolver {

    private static final String ATTRIBUTE = Caller.class.getName();

    private final ApiKeys keys;
    private final RateLimits rateLimits;

    Authentication(ApiKeys keys, RateLimits rateLimits) {
        this.keys = keys;
        this.rateLimits = rateLimits;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!(handler instanceof HandlerMethod method) || !needsCaller(method)) {
            return true;
        }
        String header = authorizationHeader(request);
        Caller caller;
        if (header == null || header.isBlank()) {
            caller = authenticate(header);
        } else {
            // A client address that keeps presenting bad credentials is refused before any lookup (decisions §9).
            rateLimits.refuseIfFailingAuthentication(request);
            try {
                caller = authenticate(header);
            } catch (ApiException refused) {
                // Counted across instances (decisions §12); over the limit this throws the 429 instead.
                rateLimits.failedAuthentication(request);
                throw refused;
            }
        }
        rateLimits.request(caller.keyId());
        if (caller.publicKey() && !method.hasMethodAnnotation(PublicKeyAllowed.class)) {
            throw new ApiException(ProblemCode.OPERATION_NOT_ALLOWED,
                    "A public key may not call this endpoint; use a secret key from your server.");
        }
        request.setAttribute(ATTRIBUTE, caller);
        MDC.put("merchant_id", caller.merchantId());
        return true;
    }

    /**
     * The caller this request authenticated as, once this interceptor let it through; empty before that and for
     * requests to endpoints that take no key.
     */
    public static java.util.Optional<Caller> callerOf(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof Caller caller ? java.util.Optional.of(caller)
                : java.util.Optional.empty();
    }

    @Override
    public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler, Exception ex) {
        MDC.remove("merchant_id");
    }

    /**
     * The request's one {@code Authorization} header, or null. Two or more are refused with 400: which one counts
     * would be up to each reader, and a proxy that reads another one than we do would see another merchant.
     */
    static String authorizationHeader(HttpServletRequest request) {
        Enumeration<String> headers = request.getHeaders(HttpHeaders.AUTHORIZATION);
        if (headers == null || !headers.hasMoreElements()) {
            return null;
        }
        String header = headers.nextElement();
        if (headers.hasMoreElements()) {
            throw new ApiException(ProblemCode.BAD_REQUEST,
                    "The request has more than one Authorization header; send exactly one.");
        }
        return header;
    }

    Caller authenticate(String header) {
        if (header == null || header.isBlank()) {
            throw new ApiException(ProblemCode.UNAUTHORIZED, "An API key is required: send Authorization: Bearer <key>.");
        }
        int space = header.indexOf(' ');
        String scheme = space < 0 ? header : header.substring(0, space);
        String token = space < 0 ? "" : header.substring(space + 1).trim();
        if (!scheme.equalsIgnoreCase("Bearer") || token.isEmpty()) {
            throw new ApiException(ProblemCode.MISSING_AUTHORIZATION,
                    "The Authorization header must use the Bearer scheme with an API key.");
        }
        if (KeyKind.of(token).isEmpty() || token.length() > 200) {
            throw invalidKey();
        }
        return keys.authenticate(token).orElseThrow(Authentication::invalidKey);
    }

    private static ApiException invalidKey() {
        return new ApiException(ProblemCode.UNAUTHORIZED, "The API key is not valid or has been revoked.");
    }

    private static boolean needsCaller(HandlerMethod method) {
        for (MethodParameter parameter : method.getMethodParameters()) {
            if (parameter.getParameterType() == Caller.class) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == Caller.class;
    }

    @Override
    public Object resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
                                  NativeWebRequest webRequest, WebDataBinderFactory binderFactory) {
        Object caller = webRequest.getAttribute(ATTRIBUTE, NativeWebRequest.SCOPE_REQUEST);
        if (caller == null) {
            throw new IllegalStateException("no authenticated caller for a method that needs one");
        }
        return caller;
    }
}
