package io.tender.subscription;

import io.tender.api.Currencies;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * A series' terms in plain words, as the checkout states them above the pay button (decisions §8): "You allow Acme to
 * charge this card ZAR 99.00 every month on the 1st, from 1 December 2026." The customer agrees to exactly this by
 * paying, and the mandate keeps the terms it was computed from.
 */
final class MandateWords {

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("d MMMM uuuu", Locale.ENGLISH);
    private static final List<String> ORDINALS = List.of("first", "second", "third", "fourth");

    private MandateWords() {
    }

    /** The sentence for a mandate's terms. */
    static String of(MandateTerms terms, String merchant, String currency) {
        StringBuilder words = new StringBuilder("You allow ").append(merchant).append(" to charge this card ");
        String amount = amount(terms.amount(), currency);
        switch (terms.type()) {
            case ON_DEMAND -> words.append("when they ask, ").append(amount).append(" each time");
            case INSTALLMENT -> words.append(amount).append(" in ").append(terms.installments())
                    .append(terms.installments() == 1 ? " installment, " : " installments, ")
                    .append(when(terms.constraint()));
            case SCHEDULED -> words.append(amount).append(' ').append(when(terms.constraint()));
        }
        words.append(", from ").append(date(terms.startDate()));
        if (terms.endDate() != null) {
            words.append(" until ").append(date(terms.endDate()));
        }
        words.append('.');
        var limit = terms.periodLimit();
        if (limit != null) {
            words.append(" At most ");
            if (limit.maxAmount() != null) {
                words.append(Currencies.display(limit.maxAmount(), currency));
            }
            if (limit.maxAmount() != null && limit.maxCount() != null) {
                words.append(" and ");
            }
            if (limit.maxCount() != null) {
                words.append(limit.maxCount()).append(limit.maxCount() == 1 ? " charge" : " charges");
            }
            String period = limit.period().name().toLowerCase(Locale.ROOT);
            words.append(limit.alignment() == MandateTerms.PeriodLimit.Alignment.CALENDAR
                    ? " per calendar " + period : " per " + period + " counted from " + date(terms.startDate()));
            words.append('.');
        }
        return words.toString();
    }

    /**
     * The sentence for a subscription's terms, its first charge on {@code firstCharge} (its start date, or one
     * interval after today's first payment).
     */
    static String of(SubscriptionTerms terms, LocalDate firstCharge, String merchant, String currency) {
        StringBuilder words = new StringBuilder("You allow ").append(merchant).append(" to charge this card ")
                .append(Currencies.display(terms.amount(), currency)).append(' ')
                .append(every(terms.interval(), terms.intervalCount()));
        if (terms.count() != null) {
            words.append(", ").append(terms.count()).append(terms.count() == 1 ? " time" : " times");
        }
        words.append(", from ").append(date(firstCharge));
        if (terms.endDate() != null) {
            words.append(" until ").append(date(terms.endDate()));
        }
        return words.append(". You can ask ").append(merchant).append(" to cancel at any time.").toString();
    }

    private static String amount(MandateTerms.Amount amount, String currency) {
        return switch (amount) {
            case MandateTerms.Fixed f -> Currencies.display(f.value(), currency);
            case MandateTerms.Variable v -> "from " + Currencies.display(v.min(), currency) + " to "
                    + Currencies.display(v.max(), currency);
        };
    }

    private static String when(MandateTerms.ExecutionConstraint constraint) {
        return switch (constraint) {
            case MandateTerms.DayOfMonth(int day) when day == -1 -> "every month on the last day";
            case MandateTerms.DayOfMonth(int day) when day > 28 -> "every month on the " + ordinal(day)
                    + " (the last day of shorter months)";
            case MandateTerms.DayOfMonth(int day) -> "every month on the " + ordinal(day);
            case MandateTerms.DayOfWeek(java.time.DayOfWeek day) -> "every " + dayName(day);
            // 366 is the last day of every year, 31 December also when the year has 365 days (MandateSchedule).
            case MandateTerms.DayOfYear(int day) when day == 366 -> "every year on the last day of the year";
            case MandateTerms.DayOfYear(int day) -> "every year on day " + day + " of the year";
            case MandateTerms.NthDayOfMonth(int n, java.time.DayOfWeek day) -> "on the "
                    + (n == -1 ? "last" : ORDINALS.get(n - 1)) + " " + dayName(day) + " of every month";
            case MandateTerms.Every(SubscriptionTerms.Interval interval, int count, LocalDate anchor, int first) ->
                    every(interval, count);
        };
    }

    private static String every(SubscriptionTerms.Interval interval, int count) {
        String unit = switch (interval) {
            case DAILY -> "day";
            case WEEKLY -> "week";
            case MONTHLY -> "month";
        };
        return count == 1 ? "every " + unit : "every " + count + " " + unit + "s";
    }

    private static String dayName(java.time.DayOfWeek day) {
        String name = day.name().toLowerCase(Locale.ROOT);
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    static String ordinal(int day) {
        int tens = day % 100;
        String suffix = tens >= 11 && tens <= 13 ? "th" : switch (day % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return day + suffix;
    }

    static String date(LocalDate date) {
        return DATE.format(date);
    }
}
