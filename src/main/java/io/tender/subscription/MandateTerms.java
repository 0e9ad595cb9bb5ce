package io.tender.subscription;

import io.tender.payment.Payments;
import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A mandate's terms, {@code options.mandate_options} of decisions §8, validated and with their defaults: what the
 * customer agrees to and every later charge is held to. Every date is a date in {@link #timeZone}. The compact
 * constructors hold the invariants {@link MandateSchedule} relies on; {@link #read} reports each broken one as a 400
 * naming its field.
 *
 * @param constraint   the execution constraint of a {@code scheduled} or {@code installment} mandate; null for
 *                     {@code on_demand}
 * @param periodLimit  null without one
 * @param endDate      inclusive; null for none
 * @param installments the count of an {@code installment} mandate; null for the other types
 */
record MandateTerms(Type type, Amount amount, ExecutionConstraint constraint, PeriodLimit periodLimit,
                    LocalDate startDate, LocalDate endDate, Integer installments, ZoneId timeZone) {

    static final ZoneId DEFAULT_ZONE = ZoneId.of("Africa/Johannesburg");
    static final int MAX_INSTALLMENTS = 1000;
    static final int MAX_PERIOD_COUNT = 1000;

    MandateTerms {
        require(type != null && amount != null && startDate != null && timeZone != null,
                "type, amount, start date and zone are required");
        require((constraint == null) == (type == Type.ON_DEMAND),
                "scheduled and installment mandates have one execution constraint, on_demand none");
        require((installments != null) == (type == Type.INSTALLMENT), "installments belong to installment mandates");
        require(installments == null || installments >= 1, "installments must be at least 1");
        require(endDate == null || !endDate.isBefore(startDate), "the end date must not be before the start date");
    }

    /** {@code scheduled} and {@code installment} mandates are charged on their execution dates only (§8). */
    enum Type {
        SCHEDULED, ON_DEMAND, INSTALLMENT
    }

    /** What each charge takes: exactly {@code value}, or anything from {@code min} to {@code max}. */
    sealed interface Amount {
    }

    record Fixed(long value) implements Amount {
        Fixed {
            require(value >= 1 && value <= Payments.MAX_AMOUNT, "a fixed amount must be 1 to the maximum");
        }
    }

    record Variable(long min, long max) implements Amount {
        Variable {
            require(min >= 1 && min <= max && max <= Payments.MAX_AMOUNT,
                    "a variable amount needs 1 <= min <= max <= the maximum");
        }
    }

    /** Which dates of the calendar a scheduled or installment mandate may be charged on. */
    sealed interface ExecutionConstraint {
    }

    /** The {@code day} of each month, the last day where the month is shorter; {@code -1}: always the last day. */
    record DayOfMonth(int day) implements ExecutionConstraint {
        DayOfMonth {
            require(day == -1 || (day >= 1 && day <= 31), "day_of_month must be 1 to 31 or -1");
        }
    }

    record DayOfWeek(java.time.DayOfWeek day) implements ExecutionConstraint {
        DayOfWeek {
            require(day != null, "day_of_week is required");
        }
    }

    /** The {@code day}th day of each year; 366 is the last day, also of a 365-day year (31 December). */
    record DayOfYear(int day) implements ExecutionConstraint {
        DayOfYear {
            require(day >= 1 && day <= 366, "day_of_year must be 1 to 366");
        }
    }

    /**
     * A subscription's mandate (ours, never given in {@code mandate_options}): every {@code count} {@code interval}s
     * counted from {@code anchor}, from its {@code firstIndex}th one (0: the anchor itself is the first charge; 1: one
     * interval after it, the first payment's date). Computed from the anchor, so a monthly one anchored on the 31st
     * charges on the last day of shorter months and on the 31st again after them.
     */
    record Every(SubscriptionTerms.Interval interval, int count, LocalDate anchor, int firstIndex)
            implements ExecutionConstraint {
        Every {
            require(interval != null && anchor != null && count >= 1 && (firstIndex == 0 || firstIndex == 1),
                    "an interval needs its unit, a count of at least 1, an anchor and a first index of 0 or 1");
        }
    }

    /** The {@code n}th {@code dayOfWeek} of each month (1 to 4); {@code -1}: the last one. */
    record NthDayOfMonth(int n, java.time.DayOfWeek dayOfWeek) implements ExecutionConstraint {
        NthDayOfMonth {
            require((n == -1 || (n >= 1 && n <= 4)) && dayOfWeek != null, "nth_day_of_month needs n 1 to 4 or -1");
        }
    }

    /**
     * At most {@code maxAmount} taken and at most {@code maxCount} charges per period (either may be null, not both).
     * Failed charges do not count (§8).
     */
    record PeriodLimit(Length period, Alignment alignment, Long maxAmount, Integer maxCount) {
        PeriodLimit {
            require(period != null && alignment != null, "period and alignment are required");
            require(maxAmount != null || maxCount != null, "a period limit needs max_amount, max_count or both");
            require(maxAmount == null || maxAmount >= 1, "max_amount must be at least 1");
            require(maxCount == null || maxCount >= 1, "max_count must be at least 1");
        }

        /** Whether a period may hold {@code count} charges that did not fail. */
        boolean allowsCount(int count) {
            return maxCount == null || count <= maxCount;
        }

        /** Whether a period's charges that did not fail may add up to {@code amount}. */
        boolean allowsAmount(long amount) {
            return maxAmount == null || amount <= maxAmount;
        }

        enum Length {
            WEEK, MONTH, YEAR
        }

        /** {@code calendar}: the week (Monday to Sunday), month or year; {@code cycle}: counted from the start date. */
        enum Alignment {
            CALENDAR, CYCLE
        }
    }

    // ---- reading ---------------------------------------------------------------------------------------------------

    private static final List<String> CONSTRAINTS = List.of("day_of_month", "day_of_week", "day_of_year",
            "nth_day_of_month");
    private static final Set<String> FIELDS = Set.copyOf(Stream.concat(CONSTRAINTS.stream(), Stream.of("type",
            "amount", "period_limit", "start_date", "end_date", "installments", "time_zone")).toList());

    /**
     * Reads {@code mandate_options} of a session's {@code options}, recording every problem under its path. The first
     * payment is a charge of the mandate, so a {@code sessionAmount} above 0 must be one it allows (fixed: equal;
     * variable: within); null or 0 (a verification) is not checked. Null when absent or when the body has any error:
     * the caller throws the 400.
     */
    static MandateTerms read(JsonInput options, Long sessionAmount) {
        JsonInput in = options.object("mandate_options", false);
        if (in == null) {
            return null;
        }
        in.allow(FIELDS);
        return readFields(in, sessionAmount);
    }

    /**
     * The terms a mandate holds, from their {@link #wire} form (trusted: written by {@link #wire}); a subscription's
     * mandate holds its interval instead of a constraint.
     */
    static MandateTerms restore(JsonNode stored) {
        JsonInput in = JsonInput.body(stored);
        if (!stored.has("interval")) {
            MandateTerms terms = readFields(in, null);
            if (terms == null) {
                throw new IllegalStateException("stored mandate terms do not read back");
            }
            return terms;
        }
        Fixed amount = new Fixed(stored.path("amount").path("value").longValue());
        Every every = new Every(SubscriptionTerms.Interval.valueOf(stored.path("interval").stringValue("")
                .toUpperCase(java.util.Locale.ROOT)), stored.path("interval_count").intValue(),
                LocalDate.parse(stored.path("anchor_date").stringValue("")), stored.path("first_index").intValue());
        String end = stored.path("end_date").stringValue(null);
        return new MandateTerms(Type.SCHEDULED, amount, every, null, LocalDate.parse(stored.path("start_date")
                .stringValue("")), end == null ? null : LocalDate.parse(end), null,
                java.time.ZoneId.of(stored.path("time_zone").stringValue("")));
    }

    /**
     * The mandate of a subscription (decisions §8): {@code scheduled}, its fixed amount, its interval from its anchor,
     * from its first charge ({@code startDate}) to its {@code endDate} (its last charge's date for a count; null for
     * none), in {@code zone}.
     */
    static MandateTerms ofSubscription(SubscriptionTerms subscription, LocalDate anchor, int firstIndex,
                                       LocalDate startDate, LocalDate endDate, ZoneId zone) {
        return new MandateTerms(Type.SCHEDULED, new Fixed(subscription.amount()),
                new Every(subscription.interval(), subscription.intervalCount(), anchor, firstIndex), null, startDate,
                endDate, null, zone);
    }

    /** The terms as {@code mandate_options} show them (and as they are stored), defaults included. */
    Map<String, Object> wire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("type", type.name().toLowerCase(java.util.Locale.ROOT));
        wire.put("amount", switch (amount) {
            case Fixed f -> Map.of("type", "fixed", "value", f.value());
            case Variable v -> Map.of("type", "variable", "min", v.min(), "max", v.max());
        });
        switch (constraint) {
            case DayOfMonth(int day) -> wire.put("day_of_month", day);
            case DayOfWeek(java.time.DayOfWeek day) -> wire.put("day_of_week", day.getValue());
            case DayOfYear(int day) -> wire.put("day_of_year", day);
            case NthDayOfMonth(int n, java.time.DayOfWeek day) ->
                    wire.put("nth_day_of_month", Map.of("n", n, "day_of_week", day.getValue()));
            case Every(SubscriptionTerms.Interval interval, int count, LocalDate anchor, int firstIndex) -> {
                wire.put("interval", interval.name().toLowerCase(java.util.Locale.ROOT));
                wire.put("interval_count", count);
                wire.put("anchor_date", anchor.toString());
                wire.put("first_index", firstIndex);
            }
            case null -> {
            }
        }
        if (periodLimit != null) {
            Map<String, Object> limit = new LinkedHashMap<>();
            limit.put("period", periodLimit.period().name().toLowerCase(java.util.Locale.ROOT));
            limit.put("alignment", periodLimit.alignment().name().toLowerCase(java.util.Locale.ROOT));
            if (periodLimit.maxAmount() != null) {
                limit.put("max_amount", periodLimit.maxAmount());
            }
            if (periodLimit.maxCount() != null) {
                limit.put("max_count", periodLimit.maxCount());
            }
            wire.put("period_limit", limit);
        }
        wire.put("start_date", startDate.toString());
        if (endDate != null) {
            wire.put("end_date", endDate.toString());
        }
        if (installments != null) {
            wire.put("installments", installments);
        }
        wire.put("time_zone", timeZone.getId());
        return wire;
    }

    /** Reads the fields of {@code in}, a {@code mandate_options} object, whose allowed names the caller set. */
    private static MandateTerms readFields(JsonInput in, Long sessionAmount) {
        Type type = SeriesInput.oneOf(in, "type", true, Type.class);
        Amount amount = amount(in, sessionAmount == null || sessionAmount == 0 ? null : sessionAmount);
        ExecutionConstraint constraint = constraint(in, type);
        PeriodLimit limit = periodLimit(in, amount);
        LocalDate start = SeriesInput.date(in, "start_date", true);
        LocalDate end = SeriesInput.date(in, "end_date", false);
        if (start != null && end != null) {
            in.check(!end.isBefore(start), "end_date", "must not be before start_date");
        }
        Integer installments = null;
        if (type == Type.INSTALLMENT) {
            installments = SeriesInput.count(in, "installments", true, MAX_INSTALLMENTS);
        } else if (type != null) {
            in.check(!in.has("installments"), "installments", "applies to installment mandates only");
        }
        ZoneId zone = SeriesInput.zone(in, "time_zone");
        if (!in.valid()) {
            return null;
        }
        return new MandateTerms(type, amount, constraint, limit, start, end, installments, zone);
    }

    /** {@code firstCharge}: the first payment's amount, which the amount must allow; null for none. */
    private static Amount amount(JsonInput parent, Long firstCharge) {
        JsonInput in = parent.object("amount", true);
        if (in == null) {
            return null;
        }
        String type = in.string("type", true);
        if (type == null) {
            in.allow(Set.of("type", "value", "min", "max"));
            return null;
        }
        long most = Payments.MAX_AMOUNT;
        switch (type) {
            case "fixed" -> {
                in.allow(Set.of("type", "value"));
                Long value = in.integer("value", true, 1, most);
                if (value == null) {
                    return null;
                }
                in.check(firstCharge == null || firstCharge.longValue() == value, "value",
                        "must equal the session's amount (the first payment is a charge of the mandate)");
                return new Fixed(value);
            }
            case "variable" -> {
                in.allow(Set.of("type", "min", "max"));
                Long min = in.integer("min", true, 1, most);
                Long max = in.integer("max", true, 1, most);
                if (min == null || max == null || !in.check(min <= max, "max", "must be at least min")) {
                    return null;
                }
                in.check(firstCharge == null || (firstCharge >= min && firstCharge <= max), "",
                        "must allow the session's amount (the first payment is a charge of the mandate)");
                return new Variable(min, max);
            }
            default -> {
                in.allow(Set.of("type", "value", "min", "max"));
                in.reject("type", "must be one of fixed, variable");
                return null;
            }
        }
    }

    /**
     * The one execution constraint of a dated mandate. Every one given is read (a null value is missing, not absent),
     * so each bad value is reported as well as the count.
     */
    private static ExecutionConstraint constraint(JsonInput in, Type type) {
        List<String> given = CONSTRAINTS.stream().filter(in::has).toList();
        if (type == Type.ON_DEMAND) {
            given.forEach(name -> in.reject(name, "does not apply to on_demand mandates"));
        } else if (type != null && given.isEmpty()) {
            in.reject("", "needs exactly one execution constraint: " + String.join(", ", CONSTRAINTS));
        } else if (type != null) {
            given.stream().skip(1).forEach(name -> in.reject(name,
                    "give exactly one execution constraint; " + given.getFirst() + " is already given"));
        }
        ExecutionConstraint first = null;
        for (String name : given) {
            ExecutionConstraint constraint = switch (name) {
                case "day_of_month" -> {
                    Long day = SeriesInput.integer(in, name, true, d -> d == -1 || (d >= 1 && d <= 31),
                            "must be 1 to 31, or -1 for the last day of the month");
                    yield day == null ? null : new DayOfMonth(day.intValue());
                }
                case "day_of_week" -> {
                    java.time.DayOfWeek day = SeriesInput.dayOfWeek(in, name, true);
                    yield day == null ? null : new DayOfWeek(day);
                }
                case "day_of_year" -> {
                    Long day = SeriesInput.integer(in, name, true, d -> d >= 1 && d <= 366, "must be 1 to 366");
                    yield day == null ? null : new DayOfYear(day.intValue());
                }
                default -> nthDayOfMonth(in);
            };
            if (first == null) {
                first = constraint;
            }
        }
        return type == Type.ON_DEMAND ? null : first;
    }

    private static NthDayOfMonth nthDayOfMonth(JsonInput parent) {
        JsonInput in = parent.object("nth_day_of_month", true);
        if (in == null) {
            return null;
        }
        in.allow(Set.of("n", "day_of_week"));
        Long n = SeriesInput.integer(in, "n", true, v -> v == -1 || (v >= 1 && v <= 4),
                "must be 1 to 4, or -1 for the last one of the month");
        java.time.DayOfWeek day = SeriesInput.dayOfWeek(in, "day_of_week", true);
        return n == null || day == null ? null : new NthDayOfMonth(n.intValue(), day);
    }

    private static PeriodLimit periodLimit(JsonInput parent, Amount amount) {
        JsonInput in = parent.object("period_limit", false);
        if (in == null) {
            return null;
        }
        in.allow(Set.of("period", "alignment", "max_amount", "max_count"));
        PeriodLimit.Length period = SeriesInput.oneOf(in, "period", true, PeriodLimit.Length.class);
        PeriodLimit.Alignment alignment = SeriesInput.oneOf(in, "alignment", false, PeriodLimit.Alignment.class);
        Long maxAmount = in.integer("max_amount", false, 1, Payments.MAX_AMOUNT);
        Integer maxCount = SeriesInput.count(in, "max_count", false, MAX_PERIOD_COUNT);
        boolean neitherGiven = !in.has("max_amount") && !in.has("max_count");
        // Both given as null records nothing while reading them, yet leaves no maximum.
        if (neitherGiven || (maxAmount == null && maxCount == null && in.valid())) {
            in.reject("", "needs max_amount, max_count or both");
        }
        // A limit below the smallest charge the mandate allows would refuse every charge.
        long smallest = switch (amount) {
            case Fixed fixed -> fixed.value();
            case Variable variable -> variable.min();
            case null -> 1;
        };
        in.check(maxAmount, m -> m >= smallest, "max_amount", "must be at least the smallest charge the amount allows");
        if (period == null || (maxAmount == null && maxCount == null)) {
            return null;
        }
        return new PeriodLimit(period, alignment == null ? PeriodLimit.Alignment.CALENDAR : alignment, maxAmount,
                maxCount);
    }

    static void require(boolean ok, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(rule);
        }
    }
}
