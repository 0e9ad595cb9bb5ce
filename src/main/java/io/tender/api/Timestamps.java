package io.tender.api;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** RFC 3339 in UTC with exactly three fraction digits, as decisions §1 fixes: {@code 2026-05-20T08:25:01.014Z}. */
public final class Timestamps {

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** How a request is told that a value is not such a timestamp. */
    public static final String RULE = "must be an RFC 3339 timestamp such as 2026-05-20T08:25:01.014Z";

    /**
     * RFC 3339's {@code date-time} (section 5.6): {@code T} or {@code t}, {@code Z} or {@code z}, any number of
     * fraction digits, and a UTC offset of up to {@code ±23:59}, beyond {@code java.time}'s ±18:00.
     */
    private static final Pattern RFC_3339 = Pattern.compile(
            "(\\d{4}-\\d{2}-\\d{2})[Tt](\\d{2}):(\\d{2}):(\\d{2})(\\.\\d+)?(?:([Zz])|([+-])(\\d{2}):(\\d{2}))");

    private Timestamps() {
    }

    /**
     * The instant an RFC 3339 timestamp names, in any offset it may have; a leap second ({@code :60}) is the
     * second after {@code :59}.
     *
     * @throws DateTimeParseException when it is not one ({@link #RULE})
     */
    public static Instant parse(String text) {
        Matcher m = RFC_3339.matcher(text);
        if (!m.matches()) {
            throw new DateTimeParseException("not an RFC 3339 date-time", text, 0);
        }
        int offsetHours = m.group(6) != null ? 0 : Integer.parseInt(m.group(8));
        int offsetMinutes = m.group(6) != null ? 0 : Integer.parseInt(m.group(9));
        int second = Integer.parseInt(m.group(4));
        if (offsetHours > 23 || offsetMinutes > 59 || second > 60) {
            throw new DateTimeParseException("not an RFC 3339 date-time", text, 0);
        }
        String fraction = m.group(5) == null ? "" : m.group(5).substring(0, Math.min(m.group(5).length(), 10));
        LocalDateTime local = LocalDateTime.parse(m.group(1) + "T" + m.group(2) + ":" + m.group(3) + ":"
                + (second == 60 ? "59" : m.group(4)) + fraction);
        long offsetSeconds = (offsetHours * 3600L + offsetMinutes * 60L) * ("-".equals(m.group(7)) ? -1 : 1);
        return local.toInstant(ZoneOffset.UTC).minusSeconds(offsetSeconds).plusSeconds(second == 60 ? 1 : 0);
    }

    /** Now, at the precision the API shows, so that what is stored and what is returned are the same instant. */
    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

    public static String format(Instant instant) {
        return instant == null ? null : FORMAT.format(instant);
    }
}
