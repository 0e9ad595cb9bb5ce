package io.tender.api;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** RFC 3339 in UTC with exactly three fraction digits, as decisions §1 fixes: {@code 2026-05-20T08:25:01.014Z}. */
public final class Timestamps {

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** How a request is told that a value is not such a timestamp. */
    public static final String RULE = "must be an RFC 3339 timestamp such as 2026-05-20T08:25:01.014Z";

    private Timestamps() {
    }

    /** Now, at the precision the API shows, so that what is stored and what is returned are the same instant. */
    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

    public static String format(Instant instant) {
        return instant == null ? null : FORMAT.format(instant);
    }
}
