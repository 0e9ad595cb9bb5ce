package io.tender.api;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks every query parameter of every request against {@link TextRules} before the controller runs (after
 * authentication, so a request without a valid key still gets its 401 first). List filters such as
 * {@code external_reference} go straight into SQL; a NUL there was a 500. Query strings that are not valid UTF-8
 * never get this far: Tomcat refuses them ({@link ApiExceptionHandler} names the parameter). Path variables need
 * no check here: Tomcat refuses an encoded NUL or invalid UTF-8 in the path with a 400 of its own.
 */
@Configuration(proxyBeanMethods = false)
class QueryTextCheck implements HandlerInterceptor, WebMvcConfigurer {

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        // Authentication is registered with the default order 0; run after it.
        registry.addInterceptor(this).order(Ordered.LOWEST_PRECEDENCE);
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (request.getQueryString() == null) {
            return true;
        }
        List<FieldError> errors = new ArrayList<>();
        for (Map.Entry<String, String[]> parameter : request.getParameterMap().entrySet()) {
            String nameFlaw = TextRules.flaw(parameter.getKey());
            if (nameFlaw != null) {
                errors.add(new FieldError("query", "has a parameter name that " + nameFlaw));
                continue;
            }
            for (String value : parameter.getValue()) {
                String flaw = TextRules.flaw(value);
                if (flaw != null) {
                    errors.add(new FieldError(parameter.getKey(), flaw));
                    break;
                }
            }
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
        return true;
    }
}
