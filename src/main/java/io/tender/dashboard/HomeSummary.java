package io.tender.dashboard;

import io.tender.api.Currencies;
import io.tender.payment.PaymentTotals;

import java.math.BigDecimal;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What Home shows for the last {@value #DAYS} days: counts and volume of succeeded, failed and uncaptured payments
 * per currency, and the chart of the main currency's (the one with most volume) daily succeeded volume, as the
 * bars of an SVG drawn here (no script, no chart library).
 */
public record HomeSummary(List<CurrencyTotals> currencies, CurrencyTotals main, List<Bar> bars, String chartMax,
                   String firstDay, String lastDay, long succeeded, long failed, long uncaptured) {

    static final int DAYS = 30;
    static final int CHART_WIDTH = 600;
    static final int CHART_HEIGHT = 160;
    private static final DateTimeFormatter SHORT = DateTimeFormatter.ofPattern("d MMM", Locale.ENGLISH);
    private static final DateTimeFormatter LONG = DateTimeFormatter.ofPattern("EEE d MMM yyyy", Locale.ENGLISH);

    public record CurrencyTotals(String currency, long succeeded, long succeededAmount, long failed, long uncaptured,
                          long uncapturedAmount) {
        public String volume() {
            return money(currency, succeededAmount);
        }

        public String uncapturedVolume() {
            return money(currency, uncapturedAmount);
        }
    }

    /** One day's bar: its place and height in the chart, and the words a screen reader and tooltip give it. */
    public record Bar(int x, int y, int width, int height, String day, String amount) {
    }

    static HomeSummary of(List<PaymentTotals.Day> days, LocalDate today) {
        Map<String, long[]> byCurrency = new LinkedHashMap<>();
        for (PaymentTotals.Day day : days) {
            long[] t = byCurrency.computeIfAbsent(day.currency(), c -> new long[5]);
            t[0] += day.succeeded();
            t[1] += day.succeededAmount();
            t[2] += day.failed();
            t[3] += day.uncaptured();
            t[4] += day.uncapturedAmount();
        }
        List<CurrencyTotals> currencies = new ArrayList<>();
        byCurrency.forEach((c, t) -> currencies.add(new CurrencyTotals(c, t[0], t[1], t[2], t[3], t[4])));
        currencies.sort(Comparator.comparingLong(CurrencyTotals::succeededAmount).reversed()
                .thenComparing(CurrencyTotals::currency));
        CurrencyTotals main = currencies.isEmpty() ? null : currencies.getFirst();

        LocalDate first = today.minusDays(DAYS - 1);
        long[] perDay = new long[DAYS];
        if (main != null) {
            for (PaymentTotals.Day day : days) {
                int index = (int) (day.day().toEpochDay() - first.toEpochDay());
                if (day.currency().equals(main.currency()) && index >= 0 && index < DAYS) {
                    perDay[index] += day.succeededAmount();
                }
            }
        }
        long max = 0;
        for (long amount : perDay) {
            max = Math.max(max, amount);
        }
        int slot = CHART_WIDTH / DAYS;
        List<Bar> bars = new ArrayList<>();
        for (int i = 0; i < DAYS; i++) {
            // Every day has at least a hairline, so an empty day reads as zero, not as missing.
            int height = max == 0 ? 1 : (int) Math.max(1, Math.round((double) perDay[i] * CHART_HEIGHT / max));
            bars.add(new Bar(i * slot + 2, CHART_HEIGHT - height, slot - 4, height, first.plusDays(i).format(LONG),
                    main == null ? "nothing" : money(main.currency(), perDay[i])));
        }
        return new HomeSummary(currencies, main, bars, main == null ? "" : money(main.currency(), max),
                first.format(SHORT), today.format(SHORT),
                currencies.stream().mapToLong(CurrencyTotals::succeeded).sum(),
                currencies.stream().mapToLong(CurrencyTotals::failed).sum(),
                currencies.stream().mapToLong(CurrencyTotals::uncaptured).sum());
    }

    public String viewBox() {
        return "0 0 " + CHART_WIDTH + " " + (CHART_HEIGHT + 2);
    }

    public int baseline() {
        return CHART_HEIGHT + 1;
    }

    /** An instant as the dashboard shows it, in UTC to the minute: {@code 27 Nov 2026, 14:05 UTC}. */
    static String moment(java.time.Instant at) {
        return MOMENT.format(at.atOffset(java.time.ZoneOffset.UTC));
    }

    private static final DateTimeFormatter MOMENT = DateTimeFormatter.ofPattern("d MMM yyyy, HH:mm 'UTC'",
            Locale.ENGLISH);

    /** An amount in minor units as people read it: {@code ZAR 1,234.50}. */
    static String money(String currency, long minor) {
        int digits;
        try {
            digits = Currencies.digits(currency);
        } catch (IllegalArgumentException e) {
            digits = 2;
        }
        DecimalFormat format = new DecimalFormat(digits == 0 ? "#,##0" : "#,##0." + "0".repeat(digits),
                DecimalFormatSymbols.getInstance(Locale.ENGLISH));
        return currency + " " + format.format(BigDecimal.valueOf(minor).movePointLeft(digits));
    }
}
