package io.tender.subscription;

import io.tender.payment.Payments;
import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static io.tender.subscription.MandateTerms.require;

/**
 * A subscription's terms, {@code options.subscription_options} of decisions §8, validated and with their defaults:
 * Tender charges {@code amount} every {@code intervalCount} {@code interval}s, counted from the anchor (see
 * {@link MandateSchedule#of(SubscriptionTerms, LocalDate, java.time.ZoneId)}), until {@code endDate} (inclusive) or
 * for {@code count} charges, or until cancelled.
 *
 * @param amount    each charge; the session's amount when not given
 * @param startDate the first charge; null: one interval after the first payment
 * @param count     the number of scheduled charges, the first payment not among them; null for no count
 * @param timeZone  where its dates are dates (ours, default {@link MandateTerms#DEFAULT_ZONE}): its mandate's zone
 */
record SubscriptionTerms(Interval interval, int intervalCount, long amount, LocalDate startDate, LocalDate endDate,
                         Integer count, int noticeDays, OnFinalFailure onFinalFailure, ZoneId timeZone) {

    static final int MAX_INTERVAL_COUNT = 12;
    static final int MAX_COUNT = 1000;
    static final int DEFAULT_NOTICE_DAYS = 2;
    static final int MAX_NOTICE_DAYS = 30;

    SubscriptionTerms {
        require(interval != null && onFinalFailure != null, "interval and on_final_failure are required");
        require(intervalCount >= 1 && intervalCount <= MAX_INTERVAL_COUNT, "interval_count must be 1 to 12");
        require(amount >= 1 && amount <= Payments.MAX_AMOUNT, "amount must be 1 to the maximum");
        require(endDate == null || count == null, "give at most one of end_date or count");
        require(count == null || count >= 1, "count must be at least 1");
        require(endDate == null || startDate == null || !endDate.isBefore(startDate),
                "the end date must not be before the start date");
        require(noticeDays >= 0 && noticeDays <= MAX_NOTICE_DAYS, "notice_days must be 0 to 30");
        require(timeZone != null, "a time zone is required");
    }

    enum Interval {
        DAILY(ChronoUnit.DAYS), WEEKLY(ChronoUnit.WEEKS), MONTHLY(ChronoUnit.MONTHS);

        final ChronoUnit unit;

        Interval(ChronoUnit unit) {
            this.unit = unit;
        }
    }

    /** What a subscription becomes after its last retry, or at once after a hard decline (§8). */
    enum OnFinalFailure {
        UNPAID, CANCELLED
    }

    private static final Set<String> FIELDS = Set.of("interval", "interval_count", "amount", "start_date", "end_date",
            "count", "notice_days", "on_final_failure", "time_zone");

    /**
     * Reads {@code subscription_options} of a session's {@code options}, recording every problem under its path;
     * {@code sessionAmount} is the amount's default (null or 0, a verification: {@code amount} is required). Null
     * when absent or when the body has any error: the caller throws the 400.
     */
    static SubscriptionTerms read(JsonInput options, Long sessionAmount) {
        JsonInput in = options.object("subscription_options", false);
        if (in == null) {
            return null;
        }
        in.allow(FIELDS);
        Interval interval = SeriesInput.oneOf(in, "interval", true, Interval.class);
        Integer intervalCount = SeriesInput.count(in, "interval_count", false, MAX_INTERVAL_COUNT);
        // A verification (amount 0) has no amount to default to.
        boolean noDefault = sessionAmount == null || sessionAmount == 0;
        Long amount = in.integer("amount", noDefault, 1, Payments.MAX_AMOUNT);
        LocalDate start = SeriesInput.date(in, "start_date", false);
        LocalDate end = SeriesInput.date(in, "end_date", false);
        if (start != null && end != null) {
            in.check(!end.isBefore(start), "end_date", "must not be before start_date");
        }
        Integer count = SeriesInput.count(in, "count", false, MAX_COUNT);
        in.check(!(in.has("end_date") && in.has("count")), "count", "give at most one of end_date or count");
        Long notice = in.integer("notice_days", false, 0, MAX_NOTICE_DAYS);
        OnFinalFailure onFinalFailure = SeriesInput.oneOf(in, "on_final_failure", false, OnFinalFailure.class);
        ZoneId zone = SeriesInput.zone(in, "time_zone");
        if (amount == null && !noDefault) {
            amount = sessionAmount;
        }
        if (!in.valid()) {
            return null;
        }
        return new SubscriptionTerms(interval, intervalCount == null ? 1 : intervalCount, amount, start, end, count,
                notice == null ? DEFAULT_NOTICE_DAYS : notice.intValue(),
                onFinalFailure == null ? OnFinalFailure.UNPAID : onFinalFailure, zone);
    }

    /**
     * Terms with what a request may leave out left out: {@code amount} every {@code intervalCount} {@code interval}s
     * from the first charge on, with no end date or count, the default notice, and {@code unpaid} after the last retry.
     */
    static SubscriptionTerms openEnded(Interval interval, int intervalCount, long amount, ZoneId timeZone) {
        return new SubscriptionTerms(interval, intervalCount, amount, null, null, null, DEFAULT_NOTICE_DAYS,
                OnFinalFailure.UNPAID, timeZone);
    }

    /** The terms as read back from their {@link #wire} form (trusted: written by {@link #wire}). */
    static SubscriptionTerms restore(JsonNode stored) {
        ObjectNode options = JsonNodeFactory.instance.objectNode();
        options.set("subscription_options", stored);
        SubscriptionTerms terms = read(JsonInput.body(options), null);
        if (terms == null) {
            throw new IllegalStateException("stored subscription terms do not read back");
        }
        return terms;
    }

    /** The terms as {@code subscription_options} show them (and as they are stored), defaults included. */
    Map<String, Object> wire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("interval", interval.name().toLowerCase(Locale.ROOT));
        wire.put("interval_count", intervalCount);
        wire.put("amount", amount);
        if (startDate != null) {
            wire.put("start_date", startDate.toString());
        }
        if (endDate != null) {
            wire.put("end_date", endDate.toString());
        }
        if (count != null) {
            wire.put("count", count);
        }
        wire.put("notice_days", noticeDays);
        wire.put("on_final_failure", onFinalFailure.name().toLowerCase(Locale.ROOT));
        wire.put("time_zone", timeZone.getId());
        return wire;
    }
}
