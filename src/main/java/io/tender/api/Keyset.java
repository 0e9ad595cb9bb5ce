package io.tender.api;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * Where a page of a dashboard list ends: the last row's {@code created_at} and id, for lists ordered
 * {@code created_at desc, id desc}. The next page is the rows after this position, so a row made while someone pages
 * never shifts or repeats one, and two rows of the same instant are told apart by id. Its cursor is opaque to people
 * (base64url of both).
 */
public record Keyset(Instant createdAt, String id) {

    public String cursor() {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((createdAt + " " + id).getBytes(StandardCharsets.UTF_8));
    }

    /** The position a {@link #cursor()} names, when it is one of a list of ids with {@code idPrefix}; else empty. */
    public static Optional<Keyset> read(String cursor, String idPrefix) {
        if (cursor == null || cursor.length() > 200) {
            return Optional.empty();
        }
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split(" ");
            if (parts.length == 2 && parts[1].startsWith(idPrefix) && parts[1].length() <= 68) {
                return Optional.of(new Keyset(Instant.parse(parts[0]), parts[1]));
            }
        } catch (RuntimeException e) {
            // not a cursor of this list
        }
        return Optional.empty();
    }
}
