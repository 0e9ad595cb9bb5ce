package io.tender.api;

import jakarta.servlet.http.HttpServletRequest;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.exc.StreamReadException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The one place where exceptions become problem+json responses. */
@RestControllerAdvice
record ApiExceptionHandler(Problems problems, BodyTextCheck bodyTextCheck, Rejections rejections,
                           ObjectProvider<AuthenticationFirst> authenticationFirst) {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    @ExceptionHandler(ApiException.class)
    ResponseEntity<byte[]> api(ApiException e, HttpServletRequest request) {
        return problems.response(e, request);
    }

    @ExceptionHandler(Rejected.class)
    ResponseEntity<byte[]> rejected(Rejected e, HttpServletRequest request) {
        return problems.response(rejections.problem(e.rejection()), request);
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<byte[]> unreadable(HttpMessageNotReadableException e, HttpServletRequest request) {
        if (BodyLimit.exceeded(e)) {
            return problems.response(BodyLimit.tooLarge(), request);
        }
        Optional<ApiException> badText = badText(e, request);
        if (badText.isPresent()) {
            return problems.response(badText.get(), request);
        }
        // Jackson's own message can quote the body (a PIN); never pass it on. A duplicate property is named: a
        // property name is not a value, and the client needs it to find the mistake.
        boolean missing = e.getMessage() != null && e.getMessage().startsWith("Required request body is missing");
        String detail = missing ? "The request body is missing." : "The request body is not valid JSON.";
        String message = missing ? "is missing" : duplicateProperty(e).map(name -> "is not valid JSON: the property \""
                + name + "\" is given more than once").orElse("is not valid JSON");
        return problems.response(new ApiException(ProblemCode.BAD_REQUEST, 400, detail,
                List.of(new FieldError("body", message)), Map.of()), request);
    }

    private static final Pattern DUPLICATE = Pattern.compile("^Duplicate Object property \"([^\"]{1,100})\"");

    private static Optional<String> duplicateProperty(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JacksonException jackson && jackson.getOriginalMessage() != null) {
                Matcher matcher = DUPLICATE.matcher(jackson.getOriginalMessage());
                if (matcher.find()) {
                    return Optional.of(matcher.group(1));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * A body the JSON parser refused for its text, not its syntax: bytes that are not UTF-8 (encoded surrogates
     * included), or a surrogate escape in a property name. Named field by field, like {@link BodyTextCheck} names
     * a NUL; if the body cannot be read even leniently, the field the parser stopped in.
     */
    private Optional<ApiException> badText(Throwable e, HttpServletRequest request) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StreamReadException read && read.getOriginalMessage() != null) {
                String message = read.getOriginalMessage();
                boolean notUtf8 = message.startsWith("Invalid UTF-8");
                if (!notUtf8 && !message.contains("surrogate")) {
                    return Optional.empty();
                }
                List<FieldError> errors = bodyTextCheck.explain(request, notUtf8);
                if (errors.isEmpty()) {
                    String field = read.processor() instanceof JsonParser parser
                            ? TextRules.fieldAt(parser.streamReadContext()) : "body";
                    errors = List.of(new FieldError(field, notUtf8 ? TextRules.NOT_UTF8
                            : "has a property name that " + TextRules.LONE_SURROGATE));
                }
                return Optional.of(ApiException.badRequest(errors));
            }
        }
        return Optional.empty();
    }

    /** A query string Tomcat cannot decode (for example {@code ?limit=%zz}): the client's mistake, not ours. */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<byte[]> undecodableQuery(InvalidParameterException e, HttpServletRequest request) {
        // Tomcat's message quotes the parameter's value, which may be a voucher PIN: neither log nor return it.
        int status = e.getErrorCode() >= 400 && e.getErrorCode() < 500 ? e.getErrorCode() : 400;
        Optional<String> notUtf8 = QueryStrings.parameterNotUtf8(request.getQueryString());
        if (notUtf8.isPresent()) {
            return problems.response(new ApiException(ProblemCode.BAD_REQUEST, status,
                    notUtf8.get() + ": " + TextRules.NOT_UTF8,
                    List.of(new FieldError(notUtf8.get(), TextRules.NOT_UTF8)), Map.of()), request);
        }
        return problems.response(new ApiException(ProblemCode.BAD_REQUEST, status,
                "query: is not a valid query string (check the percent-encoding)",
                List.of(new FieldError("query", "is not a valid query string (check the percent-encoding)")), Map.of()),
                request);
    }

    /** Spring MVC's own failures: unknown path, wrong method, wrong content type, missing parameter. */
    @ExceptionHandler(Exception.class)
    ResponseEntity<byte[]> other(Exception e, HttpServletRequest request) {
        if (e instanceof HttpMediaTypeNotAcceptableException) {
            // The key is checked before the Accept header: no key, 401, whatever the client accepts (§12).
            try {
                authenticationFirst.ifAvailable(first -> first.checkBeforeNegotiation(request));
            } catch (ApiException refused) {
                return problems.response(refused, request);
            }
        }
        if (e instanceof ErrorResponse mvc && mvc.getStatusCode().value() < 500) {
            return problems.response(fromMvc(mvc), request);
        }
        log.error("Unexpected failure on {} {}", request.getMethod(), request.getRequestURI(), e);
        return problems.response(internalError(), request);
    }

    static ApiException internalError() {
        return new ApiException(ProblemCode.INTERNAL_SERVER_ERROR,
                "The request could not be completed because of an unexpected error. Quote the request_id to support.");
    }

    private static ApiException fromMvc(ErrorResponse mvc) {
        int status = mvc.getStatusCode().value();
        Map<String, String> headers = new LinkedHashMap<>();
        HttpHeaders mvcHeaders = mvc.getHeaders();
        for (String name : List.of(HttpHeaders.ALLOW, HttpHeaders.ACCEPT)) {
            if (mvcHeaders.containsHeader(name)) {
                headers.put(name, String.join(", ", mvcHeaders.get(name)));
            }
        }
        return switch (status) {
            case 404 -> new ApiException(ProblemCode.RESOURCE_NOT_FOUND, 404,
                    "There is no such path. See /openapi.json for the API.", List.of(), headers);
            case 405 -> new ApiException(ProblemCode.BAD_REQUEST, 405,
                    "This path does not accept this HTTP method.", List.of(), headers);
            case 406 -> new ApiException(ProblemCode.BAD_REQUEST, 406,
                    "This endpoint answers with application/json only.", List.of(), headers);
            case 413 -> BodyLimit.tooLarge();
            case 415 -> new ApiException(ProblemCode.BAD_REQUEST, 415,
                    "Send the body as application/json.", List.of(), headers);
            default -> new ApiException(ProblemCode.BAD_REQUEST, status,
                    "The request is not valid: " + mvc.getBody().getDetail(), List.of(), headers);
        };
    }
}
