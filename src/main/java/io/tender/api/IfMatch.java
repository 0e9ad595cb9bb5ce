package io.tender.api;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;

import java.util.function.ToIntFunction;

/**
 * The {@code If-Match} request header: the {@code version} of the object the client read and acts on, as the
 * object's {@code ETag} gave it.
 */
public final class IfMatch {

    private IfMatch() {
    }

    /** A 200 with {@code body} and its version as the {@code ETag} ({@code "2"}), to send back as If-Match. */
    public static <T> ResponseEntity<T> tagged(T body, ToIntFunction<T> version) {
        return ResponseEntity.ok().eTag("\"" + version.applyAsInt(body) + "\"").body(body);
    }

    /**
     * {@code If-Match: 2}, {@code "2"} or {@code W/"2"}: the version, or null without the header; anything else is
     * 400 naming {@code If-Match}. {@code what}: the object, for the message ("payment").
     */
    public static Integer version(HttpServletRequest request, String what) {
        String header = request.getHeader("If-Match");
        if (header == null) {
            return null;
        }
        String digits = header.trim().replaceFirst("^W/", "").replace("\"", "");
        if (!digits.matches("^[0-9]{1,9}$")) {
            throw ApiException.badRequest("If-Match", "must be the " + what + "'s version, for example 2");
        }
        return Integer.parseInt(digits);
    }
}
