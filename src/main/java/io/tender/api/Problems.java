package io.tender.api;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.util.List;

/** Renders problems (RFC 9457) the same way for controllers, filters and the servlet error page. */
@Component
public class Problems {

    public static final MediaType PROBLEM_JSON = MediaType.APPLICATION_PROBLEM_JSON;

    private final JsonMapper json;
    private final String configuredBase;
    private final String publicBaseUrl;
    private final Environment environment;

    Problems(JsonMapper json, ProblemSettings settings, Environment environment) {
        this.json = json;
        this.configuredBase = withoutTrailingSlash(settings.problemsBase());
        this.publicBaseUrl = withoutTrailingSlash(settings.publicBaseUrl());
        this.environment = environment;
    }

    private static String withoutTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    public Problem problem(ApiException e, HttpServletRequest request) {
        return problem(e.code(), e.status(), e.getMessage(), e.errors(), request);
    }

    public Problem problem(ProblemCode code, int status, String detail, List<FieldError> errors, HttpServletRequest request) {
        return new Problem(typeOf(code, request), titleOf(code, status), status, detail,
                request == null ? null : request.getRequestURI(), code.code(),
                request == null ? null : RequestIds.of(request), errors == null || errors.isEmpty() ? null : errors);
    }

    public byte[] bytes(Problem problem) {
        return json.writeValueAsBytes(problem);
    }

    public ResponseEntity<byte[]> response(ApiException e, HttpServletRequest request) {
        var builder = ResponseEntity.status(e.status()).contentType(PROBLEM_JSON);
        e.headers().forEach(builder::header);
        if (e.code() == ProblemCode.UNAUTHORIZED || e.code() == ProblemCode.MISSING_AUTHORIZATION) {
            builder.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        }
        return builder.body(bytes(problem(e, request)));
    }

    /** For filters, which run before Spring MVC's exception handling. */
    public void write(HttpServletResponse response, ApiException e, HttpServletRequest request) throws IOException {
        ResponseEntity<byte[]> entity = response(e, request);
        response.setStatus(entity.getStatusCode().value());
        entity.getHeaders().forEach((name, values) -> values.forEach(v -> response.addHeader(name, v)));
        response.getOutputStream().write(entity.getBody());
    }

    /** From the settings only, never from the request's {@code Host} or {@code X-Forwarded-*} headers (§12). */
    private String typeOf(ProblemCode code, HttpServletRequest request) {
        String base = configuredBase;
        if (!StringUtils.hasText(base)) {
            base = publicBaseUrl() + "/problems";
        }
        return base + "/" + code.code();
    }

    /** {@code tender.public-base-url} without a trailing slash, else {@code http://localhost:<port>}. */
    String publicBaseUrl() {
        return StringUtils.hasText(publicBaseUrl) ? publicBaseUrl : "http://localhost:"
                + environment.getProperty("local.server.port", environment.getProperty("server.port", "8080"));
    }

    private static String titleOf(ProblemCode code, int status) {
        return switch (status) {
            case 405 -> "Method not allowed";
            case 406 -> "Not acceptable";
            case 413 -> "Payload too large";
            case 415 -> "Unsupported media type";
            case 422 -> "Unprocessable";
            default -> code.title();
        };
    }
}
