package io.tender.subscription;

import io.tender.subscription.MandateTerms.Amount;
import io.tender.subscription.MandateTerms.ExecutionConstraint;
import io.tender.subscription.MandateTerms.PeriodLimit;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

/**
 * The short notation the series tables write terms in, as the wire names them: {@code "day_of_month 31"},
 * {@code "nth_day_of_month -1 5"}, {@code "variable 100 5000"}, {@code "month cycle 50000 -"} ({@code -}: none).
 */
final class SeriesTerms {

    private SeriesTerms() {
    }

    static ExecutionConstraint constraint(String words) {
        if (words == null) {
            return null;
        }
        String[] w = words.split(" ");
        return switch (w[0]) {
            case "day_of_month" -> new MandateTerms.DayOfMonth(Integer.parseInt(w[1]));
            case "day_of_week" -> new MandateTerms.DayOfWeek(DayOfWeek.of(Integer.parseInt(w[1])));
            case "day_of_year" -> new MandateTerms.DayOfYear(Integer.parseInt(w[1]));
            case "nth_day_of_month" -> new MandateTerms.NthDayOfMonth(Integer.parseInt(w[1]),
                    DayOfWeek.of(Integer.parseInt(w[2])));
            default -> throw new IllegalArgumentException("no such constraint: " + words);
        };
    }

    static Amount amount(String words) {
        String[] w = words.split(" ");
        return w[0].equals("fixed") ? new MandateTerms.Fixed(Long.parseLong(w[1]))
                : new MandateTerms.Variable(Long.parseLong(w[1]), Long.parseLong(w[2]));
    }

    static PeriodLimit limit(String words) {
        if (words == null) {
            return null;
        }
        String[] w = words.split(" ");
        return new PeriodLimit(PeriodLimit.Length.valueOf(w[0].toUpperCase()),
                PeriodLimit.Alignment.valueOf(w[1].toUpperCase()), w[2].equals("-") ? null : Long.valueOf(w[2]),
                w[3].equals("-") ? null : Integer.valueOf(w[3]));
    }

    /** Dates separated by spaces; none for null. */
    static List<LocalDate> dates(String words) {
        return words == null ? List.of() : Arrays.stream(words.split(" +")).map(LocalDate::parse).toList();
    }
}
