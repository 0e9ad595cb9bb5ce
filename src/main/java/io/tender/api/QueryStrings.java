package io.tender.api;

import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Reading a raw query string ourselves, only to explain why the servlet container refused it. */
final class QueryStrings {

    private QueryStrings() {
    }

    /**
     * The name of the first parameter whose value is well percent-encoded but not valid UTF-8 (such as {@code %FF},
     * or {@code %ED%A0%80}, an encoded surrogate); empty if there is none, or if that parameter's own name cannot
     * be decoded cleanly (then no name is worth showing).
     */
    static Optional<String> parameterNotUtf8(String query) {
        if (query == null) {
            return Optional.empty();
        }
        for (String pair : query.split("&")) {
            int equals = pair.indexOf('=');
            String rawName = equals < 0 ? pair : pair.substring(0, equals);
            String rawValue = equals < 0 ? "" : pair.substring(equals + 1);
            byte[] value = percentDecoded(rawValue);
            if (value == null || utf8(value) != null) {
                continue;
            }
            byte[] name = percentDecoded(rawName);
            String decodedName = name == null ? null : utf8(name);
            if (decodedName == null || decodedName.isEmpty() || decodedName.length() > 100
                    || TextRules.flaw(decodedName) != null) {
                return Optional.empty();
            }
            return Optional.of(decodedName);
        }
        return Optional.empty();
    }

    /** The bytes of a form-encoded component, or null if its percent-encoding is broken. */
    private static byte[] percentDecoded(String raw) {
        try {
            // ISO-8859-1 maps each decoded byte to one char and back, so the bytes come out as they were sent.
            return URLDecoder.decode(raw, StandardCharsets.ISO_8859_1).getBytes(StandardCharsets.ISO_8859_1);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The text, or null if the bytes are not well-formed UTF-8 (surrogates included). */
    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
