package io.tender.subscription;

import io.tender.subscription.MandateTerms.DayOfMonth;
import io.tender.subscription.MandateTerms.DayOfWeek;
import io.tender.subscription.MandateTerms.DayOfYear;
import io.tender.subscription.MandateTerms.ExecutionConstraint;
import io.tender.subscription.MandateTerms.NthDayOfMonth;
import io.tender.subscription.MandateTerms.PeriodLimit;

import java.time.Instant;
import java.time.LocalDate;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import static io.tender.subscription.MandateTerms.require;

/**
 * The calendar of a mandate or a subscription (decisions §8): its execution dates and its period-limit periods, as
 * dates in its zone. Every date is computed from the anchor (the constraint, the subscription's first date, the
 * mandate's start date), never from the previous date, so a short month does not move the months after it:
 * {@code day_of_month: 31} is 31 January, 28 February, 31 March, 30 April.
 *
 * <p>Execution dates lie within the start date and the end date (both inclusive) and, for an installment mandate or a
 * subscription with a count, are the first {@code installments} ({@code count}) of them. An {@code on_demand} mandate
 * has none; the §8 rule "today must be an execution date" applies to dated mandates only.
 */
final class MandateSchedule {

    static final int MAX_UPCOMING = 24;

    /** A period of a period limit: from {@code start} (inclusive) to {@code end} (exclusive, the next one's start). */
    record Period(LocalDate start, LocalDate end) {
        Period {
            require(start.isBefore(end), "a period ends after it starts");
        }

        boolean contains(LocalDate date) {
            return !date.isBefore(start) && date.isBefore(end);
        }
    }

    private final ZoneId zone;
    /** The first execution date on or after a date, ignoring the bounds; null: no execution dates. */
    private final UnaryOperator<LocalDate> onOrAfter;
    /** Execution dates are on or after this. */
    private final LocalDate from;
    /** Execution dates are on or before this (inclusive); null: no end. */
    private final LocalDate until;
    private final PeriodLimit limit;
    private final LocalDate periodAnchor;

    private MandateSchedule(ZoneId zone, UnaryOperator<LocalDate> onOrAfter, LocalDate from, LocalDate until,
                            Integer count, PeriodLimit limit, LocalDate periodAnchor) {
        this.zone = zone;
        this.onOrAfter = onOrAfter;
        this.from = from;
        this.limit = limit;
        this.periodAnchor = periodAnchor;
        LocalDate last = until;
        if (onOrAfter != null && count != null) {
            LocalDate counted = onOrAfter.apply(from);
            for (int i = 1; i < count; i++) {
                counted = onOrAfter.apply(counted.plusDays(1));
            }
            last = last == null || counted.isBefore(last) ? counted : last;
        }
        this.until = last;
    }

    /** The schedule of a mandate of any type; an {@code on_demand} one has no execution dates, only periods. */
    static MandateSchedule of(MandateTerms terms) {
        ExecutionConstraint constraint = terms.constraint();
        return new MandateSchedule(terms.timeZone(), constraint == null ? null : d -> onOrAfter(constraint, d),
                terms.startDate(), terms.endDate(), terms.installments(), terms.periodLimit(), terms.startDate());
    }

    /**
     * The schedule of a subscription, in {@code zone}. Anchored on its start date, which is the first charge; without
     * one, on {@code firstPaymentDate}, one interval after which comes the first charge (§8). A monthly subscription
     * anchored on the 31st charges on the last day of shorter months and on the 31st again after them.
     */
    static MandateSchedule of(SubscriptionTerms terms, LocalDate firstPaymentDate, ZoneId zone) {
        LocalDate anchor = terms.startDate() != null ? terms.startDate() : firstPaymentDate;
        require(anchor != null, "a subscription without a start date is anchored on its first payment's date");
        long firstIndex = terms.startDate() != null ? 0 : 1;
        ChronoUnit unit = terms.interval().unit;
        int step = terms.intervalCount();
        return new MandateSchedule(zone, d -> every(anchor, unit, step, firstIndex, d),
                anchor.plus(firstIndex * step, unit), terms.endDate(), terms.count(), null, null);
    }

    ZoneId zone() {
        return zone;
    }

    /** The date it is in the schedule's zone at {@code now}: the one the charge rules of §8 ask about. */
    LocalDate today(Instant now) {
        return LocalDate.ofInstant(now, zone);
    }

    /** Whether the schedule has execution dates at all (every type but {@code on_demand}). */
    boolean dated() {
        return onOrAfter != null;
    }

    /** The first execution date of all; empty when the schedule has none. */
    Optional<LocalDate> first() {
        return next(from.minusDays(1));
    }

    /** The first execution date on or after {@code date}; empty when the schedule has ended by then. */
    Optional<LocalDate> firstOnOrAfter(LocalDate date) {
        return next(date.minusDays(1));
    }

    /** The last execution date of a schedule that ends (an end date or a count); empty for one without dates. */
    Optional<LocalDate> last() {
        require(until != null || onOrAfter == null, "a schedule without an end has no last date");
        Optional<LocalDate> last = Optional.empty();
        for (Optional<LocalDate> date = first(); date.isPresent(); date = next(date.get())) {
            last = date;
        }
        return last;
    }

    /** The first execution date strictly after {@code after}; empty when the schedule has ended or has none. */
    Optional<LocalDate> next(LocalDate after) {
        if (onOrAfter == null) {
            return Optional.empty();
        }
        LocalDate candidate = onOrAfter.apply(later(after.plusDays(1), from));
        return until != null && candidate.isAfter(until) ? Optional.empty() : Optional.of(candidate);
    }

    /** The next {@code count} (1 to 24) execution dates on or after {@code from}; fewer where the schedule ends. */
    List<LocalDate> upcoming(LocalDate from, int count) {
        require(count >= 1 && count <= MAX_UPCOMING, "count must be 1 to " + MAX_UPCOMING);
        List<LocalDate> dates = new ArrayList<>(count);
        Optional<LocalDate> next = next(from.minusDays(1));
        while (next.isPresent() && dates.size() < count) {
            dates.add(next.get());
            next = next(next.get());
        }
        return List.copyOf(dates);
    }

    /** Whether a dated mandate may be charged on {@code date} (§8); never for one without execution dates. */
    boolean isExecutionDate(LocalDate date) {
        return onOrAfter != null && !date.isBefore(from) && (until == null || !date.isAfter(until))
                && onOrAfter.apply(date).equals(date);
    }

    /**
     * The period of the mandate's period limit that holds {@code date}: the calendar week (Monday to Sunday), month or
     * year; or, aligned to the cycle, the week, month or year counted from the start date (a date before it lies in
     * the cycle before). Empty without a period limit.
     */
    Optional<Period> period(LocalDate date) {
        if (limit == null) {
            return Optional.empty();
        }
        return Optional.of(switch (limit.alignment()) {
            case CALENDAR -> switch (limit.period()) {
                case WEEK -> {
                    LocalDate monday = date.with(TemporalAdjusters.previousOrSame(java.time.DayOfWeek.MONDAY));
                    yield new Period(monday, monday.plusWeeks(1));
                }
                case MONTH -> new Period(date.withDayOfMonth(1), date.withDayOfMonth(1).plusMonths(1));
                case YEAR -> new Period(date.withDayOfYear(1), date.withDayOfYear(1).plusYears(1));
            };
            case CYCLE -> {
                ChronoUnit unit = switch (limit.period()) {
                    case WEEK -> ChronoUnit.WEEKS;
                    case MONTH -> ChronoUnit.MONTHS;
                    case YEAR -> ChronoUnit.YEARS;
                };
                long k = unit.between(periodAnchor, date);
                while (periodAnchor.plus(k, unit).isAfter(date)) {
                    k--;
                }
                while (!periodAnchor.plus(k + 1, unit).isAfter(date)) {
                    k++;
                }
                yield new Period(periodAnchor.plus(k, unit), periodAnchor.plus(k + 1, unit));
            }
        });
    }

    /** The first date on or after {@code date} that the constraint names, worked out in that date's month or year. */
    private static LocalDate onOrAfter(ExecutionConstraint constraint, LocalDate date) {
        return switch (constraint) {
            case DayOfWeek(java.time.DayOfWeek day) -> date.with(TemporalAdjusters.nextOrSame(day));
            case MandateTerms.Every(SubscriptionTerms.Interval interval, int count, LocalDate anchor, int firstIndex) ->
                    every(anchor, interval.unit, count, firstIndex, date);
            case DayOfMonth c -> monthly(c, date);
            case NthDayOfMonth c -> monthly(c, date);
            case DayOfYear(int day) -> {
                LocalDate thisYear = inYear(day, Year.from(date));
                yield thisYear.isBefore(date) ? inYear(day, Year.from(date).plusYears(1)) : thisYear;
            }
        };
    }

    private static LocalDate monthly(ExecutionConstraint constraint, LocalDate date) {
        LocalDate thisMonth = inMonth(constraint, YearMonth.from(date));
        return thisMonth.isBefore(date) ? inMonth(constraint, YearMonth.from(date).plusMonths(1)) : thisMonth;
    }

    private static LocalDate inMonth(ExecutionConstraint constraint, YearMonth month) {
        return switch (constraint) {
            case DayOfMonth(int day) when day == -1 -> month.atEndOfMonth();
            case DayOfMonth(int day) -> month.atDay(Math.min(day, month.lengthOfMonth()));
            // dayOfWeekInMonth reads -1 as the last one of the month, as §8 does.
            case NthDayOfMonth(int n, java.time.DayOfWeek day) ->
                    month.atDay(1).with(TemporalAdjusters.dayOfWeekInMonth(n, day));
            default -> throw new IllegalArgumentException("not a monthly constraint: " + constraint);
        };
    }

    /** Day 366 of a 365-day year is its last day, 31 December: "the last day" is the natural reading. */
    private static LocalDate inYear(int day, Year year) {
        return year.atDay(Math.min(day, year.length()));
    }

    private static LocalDate later(LocalDate a, LocalDate b) {
        return a.isAfter(b) ? a : b;
    }

    /** The first of {@code anchor + k·step units} (k from {@code firstIndex}) on or after {@code date}. */
    private static LocalDate every(LocalDate anchor, ChronoUnit unit, int step, long firstIndex, LocalDate date) {
        long k = Math.max(firstIndex, unit.between(anchor, date) / step);
        while (k > firstIndex && !anchor.plus((k - 1) * step, unit).isBefore(date)) {
            k--;
        }
        while (anchor.plus(k * step, unit).isBefore(date)) {
            k++;
        }
        return anchor.plus(k * step, unit);
    }
}
