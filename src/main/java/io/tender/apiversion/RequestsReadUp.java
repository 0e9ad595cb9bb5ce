package io.tender.apiversion;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;
import tools.jackson.databind.JsonNode;

import java.lang.reflect.Type;

/**
 * Reads a request body of an older version up into the newest shape as Spring MVC hands it to the controller, so
 * that every controller validates and acts on the newest shape only (decisions §15). Controllers take bodies as
 * {@link JsonNode}; a request in the newest version, or to a path no change touches, is passed on untouched.
 */
@ControllerAdvice
class RequestsReadUp extends RequestBodyAdviceAdapter {

    private final VersionShapes shapes;

    RequestsReadUp(VersionShapes shapes) {
        this.shapes = shapes;
    }

    @Override
    public boolean supports(MethodParameter parameter, Type targetType,
                            Class<? extends HttpMessageConverter<?>> converterType) {
        return targetType instanceof Class<?> type && JsonNode.class.isAssignableFrom(type);
    }

    @Override
    public Object afterBodyRead(Object body, HttpInputMessage input, MethodParameter parameter, Type targetType,
                                Class<? extends HttpMessageConverter<?>> converterType) {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)
                || !(body instanceof JsonNode tree)) {
            return body;
        }
        HttpServletRequest request = attributes.getRequest();
        ApiVersion version = RequestVersion.resolved(request);
        Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        if (version == null || version.equals(ApiVersions.NEWEST) || pattern == null) {
            return body;
        }
        return shapes.readUp(version, new Route(request.getMethod(), pattern.toString()), tree);
    }
}
