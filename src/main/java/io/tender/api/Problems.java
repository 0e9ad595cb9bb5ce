package io.tender.api;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.util.List;

/** Renders problems (RFC 9457) the same way for controllers, filters and the servlet error page. */
@Component
public class Problems {

    public static final MediaType PROBLEM_JSON = MediaType.APPLICATION_PROBLEM_JSON;

    private final JsonMapper json;
    private final String configuredBase;

    Problems(JsonMapper json, ProblemSettings settings) {
        this.json = json;
        String configuredBase = settings.problemsBase();
        this.configuredBase = configuredBase.endsWith("/")
                ? configuredBase.substring(0, configuredBase.length() - 1) : configuredBase;
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

    private String typeOf(ProblemCode code, HttpServletRequest request) {
        String base = configuredBase;
        if (!StringUtils.hasText(base)) {
            base = request == null ? "/problems"
                    : ServletUriComponentsBuilder.fromContextPath(request).path("/problems").toUriString();
        }
        return base + "/" + code.code();
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
