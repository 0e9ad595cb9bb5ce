package io.tender.apiversion;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A dated version of the API (decisions §15): {@code YYYY-MM-DD}. Later dates are newer; a request in a version reads
 * and sees the API as it was on that date, for every change Tender has versioned.
 */
public record ApiVersion(LocalDate date) implements Comparable<ApiVersion> {

    private static final Pattern FORM = Pattern.compile("^[0-9]{4}-[0-9]{2}-[0-9]{2}$");

    public ApiVersion {
        if (date == null) {
            throw new IllegalArgumentException("a version is a date");
        }
    }

    /** The version of a {@code YYYY-MM-DD} text that is a real date; empty for anything else. */
    public static Optional<ApiVersion> parse(String text) {
        if (text == null || !FORM.matcher(text).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ApiVersion(LocalDate.parse(text)));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** A version written in code ({@code "2026-06-01"}): refused at start-up if it is not a date. */
    public static ApiVersion of(String text) {
        return parse(text).orElseThrow(() -> new IllegalArgumentException("not a version: " + text));
    }

    /** As the header, the column and the documents write it. */
    public String wire() {
        return date.toString();
    }

    public boolean isBefore(ApiVersion other) {
        return date.isBefore(other.date);
    }

    @Override
    public int compareTo(ApiVersion other) {
        return date.compareTo(other.date);
    }

    @Override
    public String toString() {
        return wire();
    }
}
