package io.tender.api;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Checks every JSON request body against {@link TextRules} as Spring MVC reads it, before the controller runs, so
 * no endpoint can forget to and none stores or consumes anything (an Idempotency-Key included) for such a body.
 * Controllers take bodies as {@link JsonNode}; a body bound to anything else is checked as the tree it maps to.
 * <p>
 * The JSON parser itself refuses bytes that are not UTF-8 and a surrogate escape in a property name, without saying
 * which field held them; {@link #explain} reads the body again, leniently, to name them. For that the body's bytes
 * (at most 64 KiB, {@link BodyLimit}) are kept for the length of the request.
 */
@ControllerAdvice
class BodyTextCheck extends RequestBodyAdviceAdapter {

    private static final String BODY = BodyTextCheck.class.getName() + ".body";

    private final JsonMapper json;

    BodyTextCheck(JsonMapper json) {
        this.json = json;
    }

    @Override
    public boolean supports(MethodParameter parameter, Type targetType,
                            Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public HttpInputMessage beforeBodyRead(HttpInputMessage input, MethodParameter parameter, Type targetType,
                                           Class<? extends HttpMessageConverter<?>> converterType) throws IOException {
        byte[] bytes = input.getBody().readAllBytes();
        RequestContextHolder.currentRequestAttributes().setAttribute(BODY, bytes, RequestAttributes.SCOPE_REQUEST);
        return new HttpInputMessage() {
            @Override
            public InputStream getBody() {
                return new ByteArrayInputStream(bytes);
            }

            @Override
            public HttpHeaders getHeaders() {
                return input.getHeaders();
            }
        };
    }

    @Override
    public Object afterBodyRead(Object body, HttpInputMessage inputMessage, MethodParameter parameter, Type targetType,
                                Class<? extends HttpMessageConverter<?>> converterType) {
        JsonNode tree = body instanceof JsonNode node ? node : json.valueToTree(body);
        List<FieldError> errors = TextRules.check(tree);
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
        return body;
    }

    /**
     * The fields of this request's body that hold what the parser refused: bytes that are not UTF-8
     * ({@code notUtf8}), or surrogate escapes in property names. Each malformed byte sequence is read as an escaped
     * NUL, which {@link TextRules#check} then finds with its path. Empty if the body cannot be read even so.
     */
    List<FieldError> explain(HttpServletRequest request, boolean notUtf8) {
        if (!(request.getAttribute(BODY) instanceof byte[] bytes)) {
            return List.of();
        }
        JsonNode tree;
        try {
            tree = json.readTree(notUtf8 ? withMalformedAsNul(bytes) : new String(bytes, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return List.of();
        }
        return TextRules.check(tree).stream()
                .map(e -> notUtf8 ? new FieldError(e.field(), e.message().replace(TextRules.NUL, TextRules.NOT_UTF8)) : e)
                .toList();
    }

    /** The bytes as text, every malformed sequence written as the JSON escape of NUL. */
    private static String withMalformedAsNul(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        StringBuilder text = new StringBuilder(bytes.length + 16);
        while (true) {
            CoderResult result = decoder.decode(in, out, true);
            text.append(out.flip());
            out.clear();
            if (result.isError()) {
                text.append("\\u0000");
                in.position(in.position() + result.length());
            } else if (result.isUnderflow()) {
                decoder.flush(out);
                return text.append(out.flip()).toString();
            }
        }
    }
}
