package io.tender.apiversion;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Renders every JSON answer of an API request in an older version down from the newest shape, as Spring MVC writes
 * it, errors and replays included (decisions §15). The fast path is the rule: in the newest version, and on every path
 * no change touches (redemptions, billing, …) in any version, the body is passed on as it is, never parsed or written
 * again.
 */
@ControllerAdvice
record AnswersRenderDown(VersionShapes shapes, JsonMapper json) implements ResponseBodyAdvice<Object> {

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public Object beforeBodyWrite(Object body, MethodParameter returnType, MediaType contentType,
                                  Class<? extends HttpMessageConverter<?>> converterType, ServerHttpRequest request,
                                  ServerHttpResponse response) {
        if (body == null || !(request instanceof ServletServerHttpRequest servlet)) {
            return body;
        }
        HttpServletRequest http = servlet.getServletRequest();
        ApiVersion version = RequestVersion.resolved(http);
        if (version == null || version.equals(ApiVersions.NEWEST) || contentType == null
                || !contentType.getSubtype().endsWith("json")) {
            return body;
        }
        String path = http.getRequestURI();
        if (!shapes.rendersAnswers(version, path)) {
            return body;
        }
        boolean problem = contentType.getSubtype().equals("problem+json");
        try {
            JsonNode tree = switch (body) {
                case byte[] bytes -> json.readTree(bytes);
                case String text -> json.readTree(text);
                default -> json.valueToTree(body);
            };
            shapes.renderAnswer(version, path, tree, problem);
            return switch (body) {
                case byte[] bytes -> json.writeValueAsBytes(tree);
                case String text -> json.writeValueAsString(tree);
                default -> tree;
            };
        } catch (JacksonException e) {
            return body; // not JSON after all: nothing of it to render
        }
    }
}
