package io.tender.subscription;

import io.tender.api.ListQuery;
import io.tender.api.ApiException;
import io.tender.api.JsonInput;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The field readers {@link MandateTerms} and {@link SubscriptionTerms} share; each records a problem and answers null. */
final class SeriesInput {

    private static final Pattern CUSTOMER = io.tender.api.Ids.pattern("bcus_");

    private static final Pattern DATE = Pattern.compile("^[0-9]{4}-[0-9]{2}-[0-9]{2}$");
    /**
     * The IANA zones, read once: {@link ZoneId#getAvailableZoneIds()} builds a new set of some 600 names on every call,
     * and every subscription and mandate read from its row checks its zone.
     */
    private static final Set<String> ZONES = Set.copyOf(ZoneId.getAvailableZoneIds());

    private SeriesInput() {
    }

    /** One of an enum's wire names (its constant in lower case); null when absent or not one of them. */
    static <E extends Enum<E>> E oneOf(JsonInput in, String name, boolean required, Class<E> type) {
        String value = in.string(name, required);
        if (value == null) {
            return null;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.name().toLowerCase(Locale.ROOT).equals(value)) {
                return constant;
            }
        }
        in.reject(name, "must be one of " + Arrays.stream(type.getEnumConstants())
                .map(c -> c.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")));
        return null;
    }

    /** An integer that must satisfy {@code rule}, described in {@code words}. */
    static Long integer(JsonInput in, String name, boolean required, LongPredicate rule, String words) {
        Long value = in.integer(name, required, Long.MIN_VALUE, Long.MAX_VALUE);
        return in.check(value, rule::test, name, words);
    }

    /** A count from 1 to {@code max}. */
    static Integer count(JsonInput in, String name, boolean required, int max) {
        Long value = in.integer(name, required, 1, max);
        return value == null ? null : value.intValue();
    }

    /** An ISO day of the week, 1 to 7, Monday 1. */
    static java.time.DayOfWeek dayOfWeek(JsonInput in, String name, boolean required) {
        Long day = integer(in, name, required, d -> d >= 1 && d <= 7, "must be 1 to 7 (Monday 1, Sunday 7)");
        return day == null ? null : java.time.DayOfWeek.of(day.intValue());
    }

    /** A calendar date, {@code YYYY-MM-DD}. */
    static LocalDate date(JsonInput in, String name, boolean required) {
        String value = in.string(name, required, 1, 10, DATE, "must be a date such as 2026-12-01 (YYYY-MM-DD)");
        if (value == null) {
            return null;
        }
        try {
            return LocalDate.parse(value);
        } catch (DateTimeParseException e) {
            in.reject(name, "is not a valid calendar date");
            return null;
        }
    }

    /** An IANA time zone such as {@code Europe/London}; {@link MandateTerms#DEFAULT_ZONE} when absent. */
    static ZoneId zone(JsonInput in, String name) {
        String value = in.line(name, false, 1, 64);
        if (value == null) {
            return MandateTerms.DEFAULT_ZONE;
        }
        // Offsets (+02:00) and prefixed ids (UTC+2) parse but are not IANA zones: a mandate's dates follow a place.
        if (!ZONES.contains(value)) {
            in.reject(name, "must be an IANA time zone such as Africa/Johannesburg");
            return null;
        }
        try {
            return ZoneId.of(value);
        } catch (DateTimeException e) {
            in.reject(name, "must be an IANA time zone such as Africa/Johannesburg");
            return null;
        }
    }

    /** A list's {@code customer} filter: a customer's id ({@code bcus_…}), or null for none; anything else is a 400. */
    static String customer(ListQuery query) {
        String customer = query.single("customer");
        if (customer != null && !CUSTOMER.matcher(customer).matches()) {
            throw ApiException.badRequest("customer", "must be a customer id (bcus_…)");
        }
        return customer;
    }
}
