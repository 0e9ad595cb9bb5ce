package io.tender.subscription;

import io.tender.subscription.MandateSchedule.Period;
import io.tender.subscription.MandateTerms.Type;
import io.tender.subscription.SubscriptionTerms.Interval;
import io.tender.subscription.SubscriptionTerms.OnFinalFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

import static io.tender.subscription.SeriesTerms.constraint;
import static io.tender.subscription.SeriesTerms.dates;
import static io.tender.subscription.SeriesTerms.limit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The calendar of decisions §8, as tables: each execution constraint across 2027 and the leap year 2028, month ends
 * and {@code -1}, installments and end dates ending a schedule, subscriptions with an interval count, calendar and
 * cycle periods, and the date a mandate's zone is at, across daylight-saving changes. Every date is computed from
 * the anchor, so the rows that follow a short month are the ones that catch a schedule stepping from the previous
 * date.
 */
class MandateScheduleTest {

    private static final ZoneId JOHANNESBURG = ZoneId.of("Africa/Johannesburg");

    private static MandateSchedule mandate(String constraint, LocalDate start, LocalDate end, Integer installments) {
        return MandateSchedule.of(new MandateTerms(installments == null ? Type.SCHEDULED : Type.INSTALLMENT,
                new MandateTerms.Fixed(9900), constraint(constraint), null, start, end, installments, JOHANNESBURG));
    }

    private static MandateSchedule limited(String limit, LocalDate start) {
        return MandateSchedule.of(new MandateTerms(Type.ON_DEMAND, new MandateTerms.Variable(100, 50000), null,
                limit(limit), start, null, null, JOHANNESBURG));
    }

    /** The first dates of an open schedule, as many as the row expects. */
    private static List<LocalDate> first(MandateSchedule schedule, LocalDate from, List<LocalDate> expected) {
        return schedule.upcoming(from, expected.size());
    }

    // ---- execution constraints --------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} from {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            day_of_month 31 | 2027-01-01 | 2027-01-31 2027-02-28 2027-03-31 2027-04-30 2027-05-31 2027-06-30 2027-07-31
            day_of_month 31 | 2027-12-01 | 2027-12-31 2028-01-31 2028-02-29 2028-03-31 2028-04-30 2028-05-31
            day_of_month 30 | 2027-01-15 | 2027-01-30 2027-02-28 2027-03-30 2027-04-30
            day_of_month 30 | 2028-01-01 | 2028-01-30 2028-02-29 2028-03-30 2028-04-30
            day_of_month 29 | 2027-01-01 | 2027-01-29 2027-02-28 2027-03-29
            day_of_month 29 | 2028-01-01 | 2028-01-29 2028-02-29 2028-03-29
            day_of_month -1 | 2027-01-01 | 2027-01-31 2027-02-28 2027-03-31 2027-04-30 2027-05-31 2027-06-30
            day_of_month -1 | 2028-01-01 | 2028-01-31 2028-02-29 2028-03-31 2028-04-30
            day_of_month -1 | 2027-11-30 | 2027-11-30 2027-12-31 2028-01-31 2028-02-29
            day_of_month 1  | 2027-01-02 | 2027-02-01 2027-03-01 2027-04-01
            day_of_month 31 | 2027-01-31 | 2027-01-31 2027-02-28
            """)
    void dayOfMonthIsThatDayOfEveryMonthOrItsLastDayWhenTheMonthIsShorter(String constraint, LocalDate start,
                                                                          String expected) {
        assertThat(first(mandate(constraint, start, null, null), start, dates(expected)))
                .containsExactlyElementsOf(dates(expected));
    }

    @ParameterizedTest(name = "{0} from {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            day_of_week 1 | 2027-01-01 | 2027-01-04 2027-01-11 2027-01-18 2027-01-25 2027-02-01
            day_of_week 5 | 2027-01-01 | 2027-01-01 2027-01-08 2027-01-15
            day_of_week 7 | 2027-01-03 | 2027-01-03 2027-01-10 2027-01-17
            day_of_week 2 | 2028-02-27 | 2028-02-29 2028-03-07 2028-03-14
            """)
    void dayOfWeekIsThatWeekdayOfEveryWeekMondayBeingOne(String constraint, LocalDate start, String expected) {
        assertThat(first(mandate(constraint, start, null, null), start, dates(expected)))
                .containsExactlyElementsOf(dates(expected));
    }

    @ParameterizedTest(name = "{0} from {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            day_of_year 366 | 2027-01-01 | 2027-12-31 2028-12-31 2029-12-31
            day_of_year 365 | 2027-01-01 | 2027-12-31 2028-12-30 2029-12-31
            day_of_year 60  | 2027-01-01 | 2027-03-01 2028-02-29 2029-03-01
            day_of_year 1   | 2027-01-02 | 2028-01-01 2029-01-01
            """)
    void dayOfYearIsThatDayOfEveryYearAnd366IsTheLastDayOfAShorterYear(String constraint, LocalDate start,
                                                                       String expected) {
        assertThat(first(mandate(constraint, start, null, null), start, dates(expected)))
                .containsExactlyElementsOf(dates(expected));
    }

    @ParameterizedTest(name = "{0} from {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            nth_day_of_month 1 1  | 2027-11-01 | 2027-11-01 2027-12-06 2028-01-03 2028-02-07 2028-03-06
            nth_day_of_month 1 7  | 2027-11-01 | 2027-11-07 2027-12-05 2028-01-02 2028-02-06 2028-03-05
            nth_day_of_month 2 2  | 2027-11-01 | 2027-11-09 2027-12-14 2028-01-11 2028-02-08 2028-03-14
            nth_day_of_month 3 3  | 2027-11-01 | 2027-11-17 2027-12-15 2028-01-19 2028-02-16 2028-03-15
            nth_day_of_month 4 5  | 2027-11-01 | 2027-11-26 2027-12-24 2028-01-28 2028-02-25 2028-03-24
            nth_day_of_month 4 7  | 2027-11-01 | 2027-11-28 2027-12-26 2028-01-23 2028-02-27 2028-03-26
            nth_day_of_month -1 5 | 2027-11-01 | 2027-11-26 2027-12-31 2028-01-28 2028-02-25 2028-03-31
            nth_day_of_month -1 7 | 2027-11-01 | 2027-11-28 2027-12-26 2028-01-30 2028-02-27 2028-03-26
            nth_day_of_month 1 1  | 2027-11-02 | 2027-12-06 2028-01-03
            """)
    void nthDayOfMonthIsThatWeekdayOfEveryMonthAndMinusOneIsTheLastOfThem(String constraint, LocalDate start,
                                                                          String expected) {
        assertThat(first(mandate(constraint, start, null, null), start, dates(expected)))
                .containsExactlyElementsOf(dates(expected));
    }

    // ---- bounds -----------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} from {1} to {2}, {3} installments: {4}")
    @CsvSource(delimiter = '|', textBlock = """
            day_of_month 15      | 2027-01-20 |            | 3  | 2027-02-15 2027-03-15 2027-04-15
            day_of_month 1       | 2027-01-01 |            | 1  | 2027-01-01
            nth_day_of_month -1 5| 2027-11-01 |            | 2  | 2027-11-26 2027-12-31
            day_of_month 31      | 2027-12-01 |            | 3  | 2027-12-31 2028-01-31 2028-02-29
            day_of_week 3        | 2027-01-01 | 2027-01-20 |    | 2027-01-06 2027-01-13 2027-01-20
            day_of_month -1      | 2027-01-01 | 2027-03-30 | 12 | 2027-01-31 2027-02-28
            day_of_year 366      | 2027-01-01 | 2028-12-30 |    | 2027-12-31
            day_of_month 31      | 2027-01-31 | 2027-01-31 |    | 2027-01-31
            day_of_month 1       | 2027-01-02 | 2027-01-31 |    |
            """)
    void theScheduleEndsAfterItsLastInstallmentOrOnItsEndDateWhicheverComesFirst(String constraint, LocalDate start,
                                                                                 LocalDate end, Integer installments,
                                                                                 String expected) {
        MandateSchedule schedule = mandate(constraint, start, end, installments);
        assertThat(schedule.upcoming(start, MandateSchedule.MAX_UPCOMING)).containsExactlyElementsOf(dates(expected));
        LocalDate last = dates(expected).isEmpty() ? start : dates(expected).getLast();
        assertThat(schedule.next(last)).isEmpty();
    }

    @ParameterizedTest(name = "{0} from {1}, after {2}: {3}")
    @CsvSource(delimiter = '|', textBlock = """
            day_of_month 31 | 2027-01-01 | 2027-01-31 | 2027-02-28
            day_of_month 31 | 2027-01-01 | 2027-02-28 | 2027-03-31
            day_of_month 31 | 2027-01-01 | 2027-03-01 | 2027-03-31
            day_of_month 31 | 2027-01-01 | 2026-06-01 | 2027-01-31
            day_of_month -1 | 2028-01-01 | 2028-02-28 | 2028-02-29
            day_of_month 29 | 2027-01-01 | 2027-02-27 | 2027-02-28
            day_of_year 366 | 2027-01-01 | 2027-12-31 | 2028-12-31
            day_of_week 1   | 2027-01-04 | 2027-01-04 | 2027-01-11
            """)
    void nextIsTheFirstExecutionDateAfterTheDateGivenAndNotBeforeTheStartDate(String constraint, LocalDate start,
                                                                              LocalDate after, LocalDate expected) {
        assertThat(mandate(constraint, start, null, null).next(after)).contains(expected);
    }

    @ParameterizedTest(name = "{0} from {1} to {2}, {3} installments: {4} is {5}")
    @CsvSource(delimiter = '|', textBlock = """
            day_of_month 31       | 2027-01-01 |            |   | 2027-02-28 | true
            day_of_month 31       | 2027-01-01 |            |   | 2027-03-28 | false
            day_of_month 31       | 2027-01-01 |            |   | 2027-03-31 | true
            day_of_month 31       | 2027-01-01 |            |   | 2028-02-28 | false
            day_of_month 31       | 2027-01-01 |            |   | 2028-02-29 | true
            day_of_month 30       | 2027-01-01 |            |   | 2027-02-28 | true
            day_of_month 29       | 2028-01-01 |            |   | 2028-02-28 | false
            day_of_month -1       | 2027-01-01 |            |   | 2027-04-30 | true
            day_of_month -1       | 2027-01-01 |            |   | 2027-04-29 | false
            day_of_month 15       | 2027-01-16 |            |   | 2027-01-15 | false
            day_of_month 15       | 2027-01-15 |            |   | 2027-01-15 | true
            day_of_month 15       | 2027-01-01 | 2027-03-14 |   | 2027-03-15 | false
            day_of_month 15       | 2027-01-01 | 2027-03-15 |   | 2027-03-15 | true
            day_of_month 15       | 2027-01-01 |            | 3 | 2027-03-15 | true
            day_of_month 15       | 2027-01-01 |            | 3 | 2027-04-15 | false
            day_of_week 7         | 2027-01-01 |            |   | 2027-01-03 | true
            day_of_week 7         | 2027-01-01 |            |   | 2027-01-04 | false
            day_of_year 366       | 2027-01-01 |            |   | 2027-12-31 | true
            day_of_year 366       | 2027-01-01 |            |   | 2027-12-30 | false
            day_of_year 366       | 2027-01-01 |            |   | 2028-12-30 | false
            nth_day_of_month -1 5 | 2027-01-01 |            |   | 2027-12-31 | true
            nth_day_of_month 4 5  | 2027-01-01 |            |   | 2027-12-31 | false
            nth_day_of_month 4 5  | 2027-01-01 |            |   | 2027-12-24 | true
            """)
    void anExecutionDateIsADateTheScheduleNamesWithinItsBounds(String constraint, LocalDate start, LocalDate end,
                                                               Integer installments, LocalDate date,
                                                               boolean expected) {
        assertThat(mandate(constraint, start, end, installments).isExecutionDate(date)).isEqualTo(expected);
    }

    @Test
    void anOnDemandMandateHasNoExecutionDates() {
        MandateSchedule schedule = limited("month calendar 50000 -", LocalDate.of(2027, 1, 1));

        assertThat(schedule.dated()).isFalse();
        assertThat(schedule.next(LocalDate.of(2027, 1, 1))).isEmpty();
        assertThat(schedule.upcoming(LocalDate.of(2027, 1, 1), 24)).isEmpty();
        assertThat(schedule.isExecutionDate(LocalDate.of(2027, 1, 1))).isFalse();
        assertThat(mandate("day_of_month 1", LocalDate.of(2027, 1, 1), null, null).dated()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 25})
    void upcomingGivesOneTo24Dates(int count) {
        MandateSchedule weekly = mandate("day_of_week 1", LocalDate.of(2027, 1, 1), null, null);

        assertThatThrownBy(() -> weekly.upcoming(LocalDate.of(2027, 1, 1), count))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(weekly.upcoming(LocalDate.of(2027, 1, 1), 24)).hasSize(24)
                .endsWith(LocalDate.of(2027, 6, 14));
    }

    // ---- subscriptions ----------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "every {1} {0}, start {2}, first payment {3}, end {4}, count {5}: {6}")
    @CsvSource(delimiter = '|', textBlock = """
            monthly | 1  | 2027-01-31 |            |            |   | 2027-01-31 2027-02-28 2027-03-31 2027-04-30 2027-05-31
            monthly | 1  |            | 2027-01-31 |            |   | 2027-02-28 2027-03-31 2027-04-30
            monthly | 1  |            | 2028-01-30 |            |   | 2028-02-29 2028-03-30 2028-04-30
            monthly | 3  | 2027-11-30 |            |            |   | 2027-11-30 2028-02-29 2028-05-30 2028-08-30
            monthly | 12 | 2028-02-29 |            |            |   | 2028-02-29 2029-02-28 2030-02-28 2031-02-28 2032-02-29
            weekly  | 2  | 2027-01-01 |            |            |   | 2027-01-01 2027-01-15 2027-01-29
            weekly  | 1  |            | 2027-01-01 |            |   | 2027-01-08 2027-01-15
            daily   | 1  | 2027-12-30 |            |            |   | 2027-12-30 2027-12-31 2028-01-01
            daily   | 3  |            | 2027-02-26 |            |   | 2027-03-01 2027-03-04
            """)
    void aSubscriptionChargesEveryIntervalCountedFromItsAnchor(String interval, int intervalCount, LocalDate start,
                                                              LocalDate firstPayment, LocalDate end, Integer count,
                                                              String expected) {
        MandateSchedule schedule = subscription(interval, intervalCount, start, firstPayment, end, count);
        LocalDate from = start != null ? start : firstPayment;
        assertThat(first(schedule, from, dates(expected))).containsExactlyElementsOf(dates(expected));
    }

    @ParameterizedTest(name = "every {1} {0}, start {2}, first payment {3}, end {4}, count {5}: {6}")
    @CsvSource(delimiter = '|', textBlock = """
            monthly | 1 | 2027-01-15 |            |            | 3 | 2027-01-15 2027-02-15 2027-03-15
            weekly  | 1 |            | 2027-01-10 |            | 2 | 2027-01-17 2027-01-24
            daily   | 2 | 2027-01-01 |            | 2027-01-06 |   | 2027-01-01 2027-01-03 2027-01-05
            monthly | 1 |            | 2027-01-31 | 2027-04-29 |   | 2027-02-28 2027-03-31
            monthly | 2 | 2027-01-31 |            | 2027-01-31 |   | 2027-01-31
            """)
    void aSubscriptionEndsAfterItsCountOrOnItsEndDate(String interval, int intervalCount, LocalDate start,
                                                      LocalDate firstPayment, LocalDate end, Integer count,
                                                      String expected) {
        MandateSchedule schedule = subscription(interval, intervalCount, start, firstPayment, end, count);
        LocalDate from = start != null ? start : firstPayment;
        assertThat(schedule.upcoming(from, MandateSchedule.MAX_UPCOMING)).containsExactlyElementsOf(dates(expected));
    }

    @ParameterizedTest(name = "every {1} {0}, start {2}, first payment {3}: {4} is {5}")
    @CsvSource(delimiter = '|', textBlock = """
            monthly | 1 |            | 2027-01-31 | 2027-01-31 | false
            monthly | 1 |            | 2027-01-31 | 2027-02-28 | true
            monthly | 1 |            | 2027-01-31 | 2027-03-28 | false
            monthly | 1 |            | 2027-01-31 | 2027-03-31 | true
            monthly | 2 | 2027-01-31 |            | 2027-02-28 | false
            monthly | 2 | 2027-01-31 |            | 2027-03-31 | true
            weekly  | 2 | 2027-01-01 |            | 2027-01-08 | false
            weekly  | 2 | 2027-01-01 |            | 2027-01-15 | true
            daily   | 1 | 2027-01-01 |            | 2026-12-31 | false
            """)
    void aSubscriptionIsChargedOnlyOnItsOwnDatesAndNotOnItsFirstPaymentsDate(String interval, int intervalCount,
                                                                              LocalDate start, LocalDate firstPayment,
                                                                              LocalDate date, boolean expected) {
        MandateSchedule schedule = subscription(interval, intervalCount, start, firstPayment, null, null);
        assertThat(schedule.isExecutionDate(date)).isEqualTo(expected);
    }

    private static MandateSchedule subscription(String interval, int intervalCount, LocalDate start,
                                                LocalDate firstPayment, LocalDate end, Integer count) {
        var terms = new SubscriptionTerms(Interval.valueOf(interval.toUpperCase()), intervalCount, 9900, start, end,
                count, 2, OnFinalFailure.UNPAID, JOHANNESBURG);
        return MandateSchedule.of(terms, firstPayment, JOHANNESBURG);
    }

    // ---- periods ----------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} from {1}: {2} is in {3} to {4}")
    @CsvSource(delimiter = '|', textBlock = """
            week calendar  | 2027-01-01 | 2027-01-06 | 2027-01-04 | 2027-01-11
            week calendar  | 2027-01-01 | 2027-01-03 | 2026-12-28 | 2027-01-04
            week calendar  | 2027-01-01 | 2027-01-04 | 2027-01-04 | 2027-01-11
            week cycle     | 2027-01-01 | 2027-01-07 | 2027-01-01 | 2027-01-08
            week cycle     | 2027-01-01 | 2027-01-08 | 2027-01-08 | 2027-01-15
            month calendar | 2027-01-31 | 2028-02-15 | 2028-02-01 | 2028-03-01
            month calendar | 2027-01-31 | 2028-02-29 | 2028-02-01 | 2028-03-01
            month cycle    | 2027-01-31 | 2027-01-31 | 2027-01-31 | 2027-02-28
            month cycle    | 2027-01-31 | 2027-02-27 | 2027-01-31 | 2027-02-28
            month cycle    | 2027-01-31 | 2027-02-28 | 2027-02-28 | 2027-03-31
            month cycle    | 2027-01-31 | 2027-03-30 | 2027-02-28 | 2027-03-31
            month cycle    | 2027-01-31 | 2027-03-31 | 2027-03-31 | 2027-04-30
            month cycle    | 2027-01-31 | 2028-02-29 | 2028-02-29 | 2028-03-31
            month cycle    | 2027-01-15 | 2027-01-14 | 2026-12-15 | 2027-01-15
            year calendar  | 2027-06-01 | 2028-12-31 | 2028-01-01 | 2029-01-01
            year cycle     | 2028-02-29 | 2029-02-27 | 2028-02-29 | 2029-02-28
            year cycle     | 2028-02-29 | 2029-02-28 | 2029-02-28 | 2030-02-28
            year cycle     | 2028-02-29 | 2032-02-29 | 2032-02-29 | 2033-02-28
            """)
    void aPeriodIsTheCalendarWeekMonthOrYearOrTheCycleCountedFromTheStartDate(String period, LocalDate start,
                                                                             LocalDate date, LocalDate periodStart,
                                                                             LocalDate periodEnd) {
        Period p = limited(period + " - 4", start).period(date).orElseThrow();

        assertThat(p).isEqualTo(new Period(periodStart, periodEnd));
        assertThat(p.contains(date)).isTrue();
        assertThat(p.contains(periodEnd)).as("the end is exclusive").isFalse();
    }

    @Test
    void aMandateWithoutAPeriodLimitHasNoPeriod() {
        assertThat(limited(null, LocalDate.of(2027, 1, 1)).period(LocalDate.of(2027, 1, 1))).isEmpty();
    }

    // ---- the mandate's zone -----------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{1} is {2} in {0}")
    @CsvSource(delimiter = '|', textBlock = """
            Africa/Johannesburg | 2027-01-31T21:59:59Z | 2027-01-31
            Africa/Johannesburg | 2027-01-31T22:00:00Z | 2027-02-01
            America/New_York    | 2027-03-14T04:59:59Z | 2027-03-13
            America/New_York    | 2027-03-14T05:00:00Z | 2027-03-14
            America/New_York    | 2027-03-15T03:59:59Z | 2027-03-14
            America/New_York    | 2027-03-15T04:30:00Z | 2027-03-15
            America/New_York    | 2027-11-07T04:30:00Z | 2027-11-07
            America/New_York    | 2027-11-08T04:30:00Z | 2027-11-07
            Europe/London       | 2027-03-27T23:30:00Z | 2027-03-27
            Europe/London       | 2027-03-28T23:30:00Z | 2027-03-29
            Europe/London       | 2027-10-30T23:30:00Z | 2027-10-31
            Europe/London       | 2027-10-31T23:30:00Z | 2027-10-31
            """)
    void todayIsTheDateInTheMandatesZoneOnEitherSideOfADaylightSavingChange(ZoneId zone, Instant now,
                                                                           LocalDate expected) {
        MandateSchedule schedule = MandateSchedule.of(new MandateTerms(Type.SCHEDULED, new MandateTerms.Fixed(9900),
                constraint("day_of_month 1"), null, LocalDate.of(2027, 1, 1), null, null, zone));

        assertThat(schedule.today(now)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            2027-03-15T03:30:00Z | false
            2027-03-15T04:30:00Z | true
            2027-03-16T03:30:00Z | true
            2027-03-16T04:30:00Z | false
            """)
    void whetherTodayIsAnExecutionDateIsDecidedInTheMandatesZone(Instant now, boolean expected) {
        // New York is on daylight time (UTC-4) from 14 March 2027: the 15th there begins at 04:00 UTC.
        MandateSchedule newYork = MandateSchedule.of(new MandateTerms(Type.SCHEDULED, new MandateTerms.Fixed(9900),
                constraint("day_of_month 15"), null, LocalDate.of(2027, 1, 1), null, null,
                ZoneId.of("America/New_York")));

        assertThat(newYork.isExecutionDate(newYork.today(now))).isEqualTo(expected);
    }
}
