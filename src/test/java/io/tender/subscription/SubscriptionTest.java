package io.tender.subscription;

import io.tender.payment.ChargeRetry;
import io.tender.auth.Mode;
import io.tender.subscription.Subscription.Period;
import io.tender.subscription.Subscription.PeriodStatus;
import io.tender.subscription.Subscription.Step;
import io.tender.subscription.SubscriptionTerms.Interval;
import io.tender.subscription.SubscriptionTerms.OnFinalFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static io.tender.subscription.SeriesTerms.dates;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The subscription aggregate of decisions §8, as tables: its first period (its date from the anchor, due at the start
 * of that day in its zone, its notice before), each period paid scheduling the next from the anchor without charging
 * missed dates in a burst, soft declines retried 1, 3 and 5 days after the period's first decline and hard ones final
 * at once, what a final decline makes of it ({@code on_final_failure}), cancel and resume, and its test clock.
 *
 * <p>Terms are written as clauses: the interval and its count ({@code monthly}, {@code weekly 2}), then any of
 * {@code from <start_date>}, {@code until <end_date>}, {@code count N}, {@code notice N}, {@code cancelled} (its
 * {@code on_final_failure}) and a zone (default Johannesburg). Stories are steps on the open period, each charging it
 * first: {@code paid <day>}, {@code declined <code> <day>} (the day the answer was processed), {@code cancelled},
 * {@code resumed <day>}. Unless a row says otherwise the first payment was made on 31 January 2027, and {@code -} is
 * none.
 */
class SubscriptionTest {

    private static final LocalDate FIRST_PAYMENT = LocalDate.of(2027, 1, 31);
    private static final Instant CREATED = Instant.parse("2027-01-31T08:00:00Z");
    private static final List<Integer> RETRY_DAYS = List.of(1, 3, 5);
    private static final int RETRIES = RETRY_DAYS.size();

    // ---- fixtures ---------------------------------------------------------------------------------------------------

    static SubscriptionTerms terms(String words) {
        String[] clauses = words.split(", *");
        String[] every = clauses[0].split(" ");
        LocalDate start = null;
        LocalDate end = null;
        Integer count = null;
        int notice = SubscriptionTerms.DEFAULT_NOTICE_DAYS;
        OnFinalFailure onFinalFailure = OnFinalFailure.UNPAID;
        ZoneId zone = MandateTerms.DEFAULT_ZONE;
        for (int i = 1; i < clauses.length; i++) {
            String[] c = clauses[i].split(" ");
            switch (c[0]) {
                case "from" -> start = LocalDate.parse(c[1]);
                case "until" -> end = LocalDate.parse(c[1]);
                case "count" -> count = Integer.valueOf(c[1]);
                case "notice" -> notice = Integer.parseInt(c[1]);
                case "cancelled" -> onFinalFailure = OnFinalFailure.CANCELLED;
                default -> zone = ZoneId.of(c[0]);
            }
        }
        return new SubscriptionTerms(Interval.valueOf(every[0].toUpperCase()),
                every.length > 1 ? Integer.parseInt(every[1]) : 1, 9900, start, end, count, notice, onFinalFailure,
                zone);
    }

    private static Subscription.Created create(String terms, LocalDate firstPayment) {
        return Subscription.create(new Subscription.Terms("sub_1", "mer_1", Mode.TEST, "mdt_1", "bcus_1", "ZAR",
                terms(terms), firstPayment, "pay_0", CREATED), RETRIES);
    }

    /** A subscription and where a story left it: its open period, the last period it touched and the last step. */
    private static final class Story {
        final Subscription subscription;
        Period open;
        Period last;
        Step step;
        List<Subscription.Transition> transitions = List.of();
        int payments;

        Story(Subscription.Created created) {
            this.subscription = created.subscription();
            this.open = created.first().orElse(null);
            this.last = open;
        }

        Story then(String steps) {
            if (steps == null) {
                return this;
            }
            for (String words : steps.split(", *")) {
                String[] w = words.split(" ");
                switch (w[0]) {
                    case "paid" -> {
                        String payment = "pay_" + ++payments;
                        settled(subscription.paid(open.charging(payment), payment, LocalDate.parse(w[1]), RETRIES,
                                at(w[1])));
                    }
                    case "declined" -> {
                        String payment = "pay_" + ++payments;
                        settled(subscription.declined(open.charging(payment), w[1], LocalDate.parse(w[2]),
                                RETRY_DAYS, at(w[2])));
                    }
                    case "cancelled" -> transitions = List.of(subscription.cancel(CREATED.plusSeconds(60)));
                    case "resumed" -> {
                        open = subscription.resume(last, at(w[1]));
                        last = open;
                        transitions = List.of();
                    }
                    default -> throw new IllegalArgumentException("no such step: " + words);
                }
            }
            return this;
        }

        /** The open period is the one scheduled next, or the declined one while it waits for a retry. */
        private void settled(Step step) {
            this.step = step;
            last = step.period();
            open = step.period().open() ? step.period() : step.next().orElse(null);
            transitions = step.transitions();
        }
    }

    /** 08:00 UTC on {@code day}: 10:00 in Johannesburg, the same date. */
    private static Instant at(String day) {
        return Instant.parse(day + "T08:00:00Z");
    }

    private static Story story(String terms, String steps) {
        return new Story(create(terms, FIRST_PAYMENT)).then(steps);
    }

    private static String names(List<? extends Enum<?>> values) {
        return values.isEmpty() ? null : values.stream().map(Enum::name).collect(Collectors.joining(" "));
    }

    private static LocalDate date(Instant instant, Subscription s) {
        return instant == null ? null : LocalDate.ofInstant(instant, s.zone());
    }

    // ---- the first period -------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}, first payment {1}: first charge {2}, {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # terms                                 | first payment | first charge | status
            monthly                                 | 2027-01-31    | 2027-02-28   | active
            monthly                                 | 2028-01-31    | 2028-02-29   | active
            monthly                                 | 2027-01-15    | 2027-02-15   | active
            monthly, from 2027-01-31                | 2027-01-20    | 2027-01-31   | active
            monthly, from 2027-03-01                | 2027-01-31    | 2027-03-01   | active
            monthly, from 2027-01-10                | 2027-01-14    | 2027-02-10   | active
            monthly, from 2027-01-10                | 2027-01-10    | 2027-01-10   | active
            monthly 3                               | 2027-11-30    | 2028-02-29   | active
            weekly 2                                | 2027-01-01    | 2027-01-15   | active
            daily                                   | 2027-12-31    | 2028-01-01   | active
            daily 3, from 2027-02-01                | 2027-01-31    | 2027-02-01   | active
            monthly, count 1                        | 2027-01-31    | 2027-02-28   | active
            monthly, until 2027-02-28               | 2027-01-31    | 2027-02-28   | active
            monthly, from 2027-02-01, until 2027-02-01 | 2027-01-31 | 2027-02-01   | active
            monthly, until 2027-02-27               | 2027-01-31    | -            | completed
            daily, until 2027-01-10                 | 2027-01-10    | -            | completed
            """)
    void theFirstPeriodIsOnTheStartDateOrOneIntervalAfterTheFirstPaymentOrThereIsNone(String terms,
                                                                                      LocalDate firstPayment,
                                                                                      LocalDate firstCharge,
                                                                                      String status) {
        Subscription.Created created = create(terms, firstPayment);
        Subscription s = created.subscription();

        assertThat(created.first().map(Period::chargeDate)).isEqualTo(Optional.ofNullable(firstCharge));
        assertThat(s.status().wire()).isEqualTo(status);
        assertThat(s.latestPaymentId()).isEqualTo("pay_0");
        assertThat(s.currentPeriodStart()).isEqualTo(firstPayment);
        assertThat(s.currentPeriodEnd()).isEqualTo(firstCharge);
        assertThat(s.nextChargeAt()).isEqualTo(firstCharge == null ? null : s.startOf(firstCharge));
        assertThat(s.version()).isEqualTo(1);
        created.first().ifPresent(first -> {
            assertThat(first.number()).isEqualTo(1);
            assertThat(first.status()).isEqualTo(PeriodStatus.SCHEDULED);
            assertThat(first.amount()).isEqualTo(9900);
            assertThat(first.attempts()).isZero();
            assertThat(first.retriesLeft()).isEqualTo(RETRIES);
            assertThat(first.firstDeclinedOn()).isNull();
            assertThat(first.paymentId()).isNull();
        });
    }

    @ParameterizedTest(name = "{0}: due at {1}, notice at {2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # terms                                           | due at               | notice at
            monthly, from 2027-02-01                          | 2027-01-31T22:00:00Z | 2027-01-29T22:00:00Z
            monthly, from 2027-02-01, notice 1                | 2027-01-31T22:00:00Z | 2027-01-30T22:00:00Z
            monthly, from 2027-02-01, notice 30               | 2027-01-31T22:00:00Z | 2027-01-01T22:00:00Z
            monthly, from 2027-02-01, notice 0                | 2027-01-31T22:00:00Z | -
            monthly, from 2027-03-28, Europe/London           | 2027-03-28T00:00:00Z | 2027-03-26T00:00:00Z
            monthly, from 2027-03-29, Europe/London           | 2027-03-28T23:00:00Z | 2027-03-27T00:00:00Z
            monthly, from 2027-03-30, Europe/London           | 2027-03-29T23:00:00Z | 2027-03-28T00:00:00Z
            monthly, from 2027-10-31, Europe/London           | 2027-10-30T23:00:00Z | 2027-10-28T23:00:00Z
            monthly, from 2027-11-01, Europe/London           | 2027-11-01T00:00:00Z | 2027-10-29T23:00:00Z
            monthly, from 2027-09-05, notice 0, America/Santiago | 2027-09-05T04:00:00Z | -
            monthly, from 2027-09-06, notice 1, America/Santiago | 2027-09-06T03:00:00Z | 2027-09-05T04:00:00Z
            """)
    void aPeriodIsDueAtTheStartOfItsDayInTheSubscriptionsZoneItsNoticeNoticeDaysBefore(String terms, Instant dueAt,
                                                                                      Instant noticeAt) {
        Period first = create(terms, FIRST_PAYMENT).first().orElseThrow();

        assertThat(first.dueAt()).isEqualTo(dueAt);
        assertThat(first.noticeAt()).isEqualTo(noticeAt);
    }

    // ---- paid -------------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}, first payment {1}: {2}, then {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # terms                  | first payment | charge dates, each period paid on its date           | status after the last
            monthly                  | 2027-01-31    | 2027-02-28 2027-03-31 2027-04-30 2027-05-31 2027-06-30 | active
            monthly                  | 2028-01-31    | 2028-02-29 2028-03-31 2028-04-30                       | active
            monthly, from 2027-01-31 | 2027-01-20    | 2027-01-31 2027-02-28 2027-03-31                       | active
            monthly                  | 2027-01-30    | 2027-02-28 2027-03-30 2027-04-30                       | active
            monthly 3, from 2027-11-30 | 2027-11-01  | 2027-11-30 2028-02-29 2028-05-30 2028-08-30            | active
            weekly 2                 | 2027-01-01    | 2027-01-15 2027-01-29 2027-02-12                       | active
            daily, count 3           | 2027-12-30    | 2027-12-31 2028-01-01 2028-01-02                       | completed
            monthly, count 2         | 2027-01-31    | 2027-02-28 2027-03-31                                  | completed
            monthly, until 2027-04-29 | 2027-01-31   | 2027-02-28 2027-03-31                                  | completed
            monthly, until 2027-04-30 | 2027-01-31   | 2027-02-28 2027-03-31 2027-04-30                       | completed
            """)
    void eachPaidPeriodSchedulesTheNextFromTheAnchorUntilTheLastCompletesIt(String terms, LocalDate firstPayment,
                                                                            String chargeDates, String status) {
        Story story = new Story(create(terms, firstPayment));
        List<LocalDate> charged = new ArrayList<>();

        while (story.open != null && charged.size() < dates(chargeDates).size()) {
            charged.add(story.open.chargeDate());
            story.then("paid " + story.open.chargeDate());
        }

        assertThat(charged).containsExactlyElementsOf(dates(chargeDates));
        assertThat(story.subscription.status().wire()).isEqualTo(status);
        assertThat(story.open == null).as("nothing more scheduled").isEqualTo(status.equals("completed"));
        assertThat(story.transitions).isEqualTo(status.equals("completed")
                ? List.of(Subscription.Transition.UPDATED) : List.of());
    }

    @ParameterizedTest(name = "{0}: period of {1} paid on {2}, next {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # terms                  | period     | paid on    | next period
            monthly                  | 2027-02-28 | 2027-02-28 | 2027-03-31
            monthly                  | 2027-02-28 | 2027-03-05 | 2027-03-31
            monthly                  | 2027-02-28 | 2027-03-30 | 2027-03-31
            monthly                  | 2027-02-28 | 2027-03-31 | 2027-04-30
            monthly                  | 2027-02-28 | 2027-04-01 | 2027-04-30
            monthly                  | 2027-02-28 | 2027-06-15 | 2027-06-30
            daily, from 2027-02-01   | 2027-02-01 | 2027-02-03 | 2027-02-04
            weekly                   | 2027-02-07 | 2027-02-09 | 2027-02-14
            weekly 2                 | 2027-02-14 | 2027-03-01 | 2027-03-14
            """)
    void aLatePaymentSkipsTheDatesAlreadyPastTheNextIsTheFirstAfterTheDayItWasPaid(String terms,
                                                                                        LocalDate period,
                                                                                        LocalDate paidOn,
                                                                                        LocalDate next) {
        Story story = story(terms, null);
        assertThat(story.open.chargeDate()).isEqualTo(period);

        story.then("paid " + paidOn);

        Subscription s = story.subscription;
        Step step = story.step;
        assertThat(step.period().status()).isEqualTo(PeriodStatus.PAID);
        assertThat(step.period().noticeAt()).isNull();
        assertThat(step.retry()).as("only a decline decides a retry").isNull();
        Period scheduled = step.next().orElseThrow();
        assertThat(scheduled.chargeDate()).isEqualTo(next);
        assertThat(scheduled.number()).isEqualTo(2);
        assertThat(scheduled.status()).isEqualTo(PeriodStatus.SCHEDULED);
        assertThat(scheduled.retriesLeft()).isEqualTo(RETRIES);
        assertThat(scheduled.dueAt()).isEqualTo(s.startOf(next));
        assertThat(scheduled.noticeAt()).isEqualTo(s.startOf(next.minusDays(2)));
        assertThat(s.currentPeriodStart()).isEqualTo(period);
        assertThat(s.currentPeriodEnd()).isEqualTo(next);
        assertThat(s.nextChargeAt()).isEqualTo(s.startOf(next));
        assertThat(s.latestPaymentId()).isEqualTo("pay_1");
        assertThat(s.status()).isEqualTo(Subscription.Status.ACTIVE);
    }

    @Test
    void theNextPeriodsOfASubscriptionInLondonAreDueAtMidnightThereOnEitherSideOfTheChangeToSummerTime() {
        Story story = story("monthly, from 2027-02-28, Europe/London", null);
        List<String> due = new ArrayList<>();

        for (int i = 0; i < 3; i++) {
            due.add(story.open.dueAt() + " notice " + story.open.noticeAt());
            story.then("paid " + story.open.chargeDate());
        }

        assertThat(due).containsExactly("2027-02-28T00:00:00Z notice 2027-02-26T00:00:00Z",
                "2027-03-28T00:00:00Z notice 2027-03-26T00:00:00Z",
                "2027-04-27T23:00:00Z notice 2027-04-25T23:00:00Z");
    }

    // ---- declined ---------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} ({1}): {2}, retry on {3}, {4} {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # declines of the period of 2027-02-28, each on the day processed                                                  | on final failure | period   | next retry | status    | transitions
            insufficient_funds 2027-02-28                                                                                        | unpaid           | retrying | 2027-03-01 | past_due  | UPDATED
            insufficient_funds 2027-02-28, insufficient_funds 2027-03-01                                                         | unpaid           | retrying | 2027-03-03 | past_due  | -
            insufficient_funds 2027-02-28, insufficient_funds 2027-03-01, insufficient_funds 2027-03-03                          | unpaid           | retrying | 2027-03-05 | past_due  | -
            insufficient_funds 2027-02-28, insufficient_funds 2027-03-01, insufficient_funds 2027-03-03, insufficient_funds 2027-03-05 | unpaid      | failed   | -          | unpaid    | UPDATED
            insufficient_funds 2027-02-28, insufficient_funds 2027-03-01, insufficient_funds 2027-03-03, insufficient_funds 2027-03-05 | cancelled   | failed   | -          | cancelled | CANCELLED
            processor_unavailable 2027-02-28                                                                                     | unpaid           | retrying | 2027-03-01 | past_due  | UPDATED
            processing_error 2027-02-28                                                                                          | unpaid           | retrying | 2027-03-01 | past_due  | UPDATED
            unknown 2027-02-28                                                                                                   | unpaid           | retrying | 2027-03-01 | past_due  | UPDATED
            unknown 2027-02-28, processor_unavailable 2027-03-01, processing_error 2027-03-03, insufficient_funds 2027-03-05      | unpaid           | failed   | -          | unpaid    | UPDATED
            card_declined 2027-02-28                                                                                             | unpaid           | failed   | -          | unpaid    | UPDATED
            generic_decline 2027-02-28                                                                                           | unpaid           | failed   | -          | unpaid    | UPDATED
            expired_card 2027-02-28                                                                                              | unpaid           | failed   | -          | unpaid    | UPDATED
            authentication_required 2027-02-28                                                                                   | unpaid           | failed   | -          | unpaid    | UPDATED
            card_declined 2027-02-28                                                                                             | cancelled        | failed   | -          | cancelled | CANCELLED
            authentication_required 2027-02-28                                                                                   | cancelled        | failed   | -          | cancelled | CANCELLED
            insufficient_funds 2027-02-28, card_declined 2027-03-01                                                              | unpaid           | failed   | -          | unpaid    | UPDATED
            insufficient_funds 2027-02-28, expired_card 2027-03-01                                                               | cancelled        | failed   | -          | cancelled | CANCELLED
            insufficient_funds 2027-03-01                                                                                        | unpaid           | retrying | 2027-03-02 | past_due  | UPDATED
            insufficient_funds 2027-02-28, insufficient_funds 2027-03-02                                                         | unpaid           | retrying | 2027-03-03 | past_due  | -
            insufficient_funds 2027-02-28, insufficient_funds 2027-03-04                                                         | unpaid           | retrying | 2027-03-05 | past_due  | -
            insufficient_funds 2027-02-28, insufficient_funds 2027-03-01, insufficient_funds 2027-03-06                          | unpaid           | retrying | 2027-03-07 | past_due  | -
            insufficient_funds 2027-02-28, insufficient_funds 2027-03-01, insufficient_funds 2027-03-03, insufficient_funds 2027-03-09 | unpaid      | failed   | -          | unpaid    | UPDATED
            """)
    void softDeclinesAreRetriedCountedFromTheFirstDeclineAndHardOnesAndTheLastRetryAreFinal(
            String declines, String onFinalFailure, String period, LocalDate nextRetry, String status,
            String transitions) {
        String terms = onFinalFailure.equals("cancelled") ? "monthly, cancelled" : "monthly";
        Story story = story(terms, declines.replaceAll("([a-z_]+) (\\d{4}-\\d\\d-\\d\\d)", "declined $1 $2"));

        Subscription s = story.subscription;
        Period declined = story.step.period();
        Instant retryAt = nextRetry == null ? null : s.startOf(nextRetry);
        int attempts = declines.split(", *").length;
        assertThat(declined.status().wire()).isEqualTo(period);
        assertThat(declined.chargeDate()).isEqualTo(LocalDate.of(2027, 2, 28));
        assertThat(declined.attempts()).isEqualTo(attempts);
        assertThat(declined.firstDeclinedOn()).isEqualTo(LocalDate.parse(declines.split(" ")[1].replace(",", "")));
        assertThat(declined.paymentId()).isEqualTo("pay_" + attempts);
        assertThat(declined.noticeAt()).as("a retry sends no notice").isNull();
        if (nextRetry != null) {
            assertThat(declined.dueAt()).isEqualTo(retryAt);
            assertThat(declined.retriesLeft()).isEqualTo(RETRIES - attempts);
        }
        assertThat(story.step.next()).as("a declined period schedules no other").isEmpty();
        assertThat(story.step.retry()).isEqualTo(new ChargeRetry(nextRetry != null, retryAt));
        assertThat(s.status().wire()).isEqualTo(status);
        assertThat(names(story.transitions)).isEqualTo(transitions);
        assertThat(s.nextChargeAt()).isEqualTo(retryAt);
        String lastDay = declines.substring(declines.lastIndexOf(' ') + 1);
        assertThat(s.cancelledAt()).isEqualTo(status.equals("cancelled") ? at(lastDay) : null);
    }

    @ParameterizedTest(name = "retries now after {0} days, {1} left on the period: {2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # retry days now | retries left on the period | next retry
            1 3 5            | 3                          | 2027-03-01
            1 3              | 3                          | 2027-03-01
            -                | 3                          | -
            """)
    void aPeriodScheduledBeforeTheRetriesWereChangedRetriesAsTheyNowAre(String retryDays, int retriesLeft,
                                                                         LocalDate nextRetry) {
        List<Integer> now = retryDays == null ? List.of()
                : java.util.Arrays.stream(retryDays.split(" ")).map(Integer::valueOf).toList();
        Subscription.Created created = create("monthly", FIRST_PAYMENT);
        Subscription s = created.subscription();
        Period first = created.first().orElseThrow();
        assertThat(first.retriesLeft()).isEqualTo(retriesLeft);

        Step step = s.declined(first.charging("pay_1"), "insufficient_funds", LocalDate.of(2027, 2, 28), now,
                at("2027-02-28"));

        assertThat(step.retry()).isEqualTo(new ChargeRetry(nextRetry != null,
                nextRetry == null ? null : s.startOf(nextRetry)));
        assertThat(s.status()).isEqualTo(nextRetry == null ? Subscription.Status.UNPAID
                : Subscription.Status.PAST_DUE);
    }

    @ParameterizedTest(name = "declined {0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            insufficient_funds      | retried
            processor_unavailable   | retried
            processing_error        | retried
            unknown                 | retried
            card_declined           | final
            generic_decline         | final
            expired_card            | final
            authentication_required | final
            do_not_honor            | final
            """)
    void softDeclineCodesAreRetriedAndEveryOtherIsFinal(String code, String expected) {
        assertThat(Subscription.SOFT_DECLINES.contains(code)).isEqualTo(expected.equals("retried"));
    }

    // ---- the subscription's moves -----------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}: {1}, {2}, next charge {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # story                                                                                          | status    | transitions of the last step | next charge
            paid 2027-02-28                                                                                  | active    | -         | 2027-03-31
            declined insufficient_funds 2027-02-28, paid 2027-03-01                                          | active    | UPDATED   | 2027-03-31
            declined insufficient_funds 2027-02-28, declined unknown 2027-03-01, paid 2027-03-03             | active    | UPDATED   | 2027-03-31
            declined insufficient_funds 2027-02-28, paid 2027-04-01                                          | active    | UPDATED   | 2027-04-30
            declined card_declined 2027-02-28                                                                | unpaid    | UPDATED   | -
            declined card_declined 2027-02-28, resumed 2027-03-10                                            | active    | -         | 2027-03-10
            declined card_declined 2027-02-28, resumed 2027-03-10, paid 2027-03-10                           | active    | -         | 2027-03-31
            declined card_declined 2027-02-28, resumed 2027-04-05, paid 2027-04-05                           | active    | -         | 2027-04-30
            declined card_declined 2027-02-28, resumed 2027-03-10, declined insufficient_funds 2027-03-10    | unpaid    | UPDATED   | -
            declined card_declined 2027-02-28, resumed 2027-03-10, declined card_declined 2027-03-10         | unpaid    | UPDATED   | -
            declined insufficient_funds 2027-02-28, cancelled                                                | cancelled | CANCELLED | -
            declined card_declined 2027-02-28, cancelled                                                     | cancelled | CANCELLED | -
            cancelled                                                                                        | cancelled | CANCELLED | -
            cancelled, paid 2027-02-28                                                                       | cancelled | -         | -
            cancelled, declined insufficient_funds 2027-02-28                                                | cancelled | -         | -
            """)
    void aSubscriptionMovesBetweenActivePastDueUnpaidAndCancelled(String story, String status, String transitions,
                                                                 LocalDate nextCharge) {
        Story s = story("monthly", story);

        assertThat(s.subscription.status().wire()).isEqualTo(status);
        assertThat(names(s.transitions)).isEqualTo(transitions);
        assertThat(date(s.subscription.nextChargeAt(), s.subscription)).isEqualTo(nextCharge);
    }

    @Test
    void aChargeThatSucceedsAfterTheSubscriptionWasCancelledKeepsTheMoneyAndSchedulesNothing() {
        Story story = story("monthly", "cancelled, paid 2027-02-28");

        assertThat(story.step.period().status()).isEqualTo(PeriodStatus.PAID);
        assertThat(story.step.next()).isEmpty();
        assertThat(story.subscription.latestPaymentId()).isEqualTo("pay_1");
        assertThat(story.subscription.currentPeriodEnd()).isNull();
    }

    @Test
    void aSoftDeclineAfterTheSubscriptionWasCancelledIsNotRetried() {
        Story story = story("monthly", "cancelled, declined insufficient_funds 2027-02-28");

        assertThat(story.step.period().status()).isEqualTo(PeriodStatus.FAILED);
        assertThat(story.step.retry()).isEqualTo(new ChargeRetry(false, null));
    }

    @ParameterizedTest(name = "cancel {0}: {1}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # story that leaves it                        | cancel
            -                                             | cancelled
            declined insufficient_funds 2027-02-28        | cancelled
            declined card_declined 2027-02-28             | cancelled
            cancelled                                     | IllegalStateException
            declined card_declined 2027-02-28, cancelled  | IllegalStateException
            paid 2027-02-28, paid 2027-03-31              | IllegalStateException
            """)
    void anySubscriptionThatHasNotEndedIsCancelledAndNothingMoreIsCharged(String story, String expected) {
        Subscription s = story("monthly, count 2", story).subscription;
        Subscription.Status before = s.status();
        int version = s.version();
        Instant at = Instant.parse("2027-04-02T08:00:00Z");

        if (expected.equals("IllegalStateException")) {
            assertThatThrownBy(() -> s.cancel(at)).isInstanceOf(IllegalStateException.class);
            assertThat(s.status()).isEqualTo(before);
            assertThat(s.version()).isEqualTo(version);
            return;
        }
        assertThat(s.cancel(at)).isEqualTo(Subscription.Transition.CANCELLED);
        assertThat(s.status()).isEqualTo(Subscription.Status.CANCELLED);
        assertThat(s.cancelledAt()).isEqualTo(at);
        assertThat(s.nextChargeAt()).isNull();
        assertThat(s.currentPeriodEnd()).isNull();
        assertThat(s.version()).isEqualTo(version + 1);
    }

    @ParameterizedTest(name = "resume {0}: {1}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # story that leaves it                                                                     | resume
            declined card_declined 2027-02-28                                                          | resumed
            declined insufficient_funds 2027-02-28, declined insufficient_funds 2027-03-01, declined insufficient_funds 2027-03-03, declined insufficient_funds 2027-03-05 | resumed
            -                                                                                          | IllegalStateException
            declined insufficient_funds 2027-02-28                                                     | IllegalStateException
            cancelled                                                                                  | IllegalStateException
            declined card_declined 2027-02-28, cancelled                                               | IllegalStateException
            declined card_declined 2027-02-28, resumed 2027-03-10                                      | IllegalStateException
            """)
    void onlyAnUnpaidSubscriptionIsResumedItsFailedPeriodChargedAtOnceWithNoRetryLeft(String story,
                                                                                      String expected) {
        Story s = story("monthly", story);
        Subscription subscription = s.subscription;
        Subscription.Status before = subscription.status();
        Period failed = s.last;
        Instant at = Instant.parse("2027-03-20T09:30:00Z");

        if (expected.equals("IllegalStateException")) {
            assertThatThrownBy(() -> subscription.resume(failed, at)).isInstanceOf(IllegalStateException.class);
            assertThat(subscription.status()).isEqualTo(before);
            return;
        }
        Period again = subscription.resume(failed, at);

        assertThat(subscription.status()).isEqualTo(Subscription.Status.ACTIVE);
        assertThat(again.status()).isEqualTo(PeriodStatus.RETRYING);
        assertThat(again.retriesLeft()).isZero();
        assertThat(again.dueAt()).isEqualTo(at);
        assertThat(again.noticeAt()).isNull();
        assertThat(List.of(again.number(), again.chargeDate(), again.amount(), again.attempts(),
                again.firstDeclinedOn())).isEqualTo(List.of(failed.number(), failed.chargeDate(), failed.amount(),
                failed.attempts(), failed.firstDeclinedOn()));
        assertThat(subscription.nextChargeAt()).isEqualTo(at);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # story that leaves it                        | completed with its mandate
            -                                             | UPDATED
            declined insufficient_funds 2027-02-28        | UPDATED
            declined card_declined 2027-02-28             | -
            cancelled                                     | -
            paid 2027-02-28, paid 2027-03-31              | -
            """)
    void aSubscriptionThatHasNotEndedNorIsUnpaidIsCompletedWithItsMandate(String story, Subscription.Transition expected) {
        Subscription s = story("monthly, count 2", story).subscription;
        Subscription.Status before = s.status();

        Optional<Subscription.Transition> completed = s.completeWithMandate(Instant.parse("2027-04-02T08:00:00Z"));

        assertThat(completed).isEqualTo(Optional.ofNullable(expected));
        assertThat(s.status()).isEqualTo(expected == null ? before : Subscription.Status.COMPLETED);
        if (expected != null) {
            assertThat(s.nextChargeAt()).isNull();
        }
    }

    /**
     * {@code stillCharged}: the one rule the scheduler (before it starts a period's charge) and the recovery job (before
     * it sends a charge that never arrived again) both ask: a subscription neither ended nor unpaid, under a mandate
     * still charged.
     */
    @ParameterizedTest(name = "{0}, mandate {1}: {2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # story that leaves it                        | mandate   | still charged
            -                                             | active    | true
            declined insufficient_funds 2027-02-28        | active    | true
            -                                             | cancelled | false
            -                                             | completed | false
            declined insufficient_funds 2027-02-28        | cancelled | false
            declined card_declined 2027-02-28             | active    | false
            cancelled                                     | active    | false
            paid 2027-02-28, paid 2027-03-31              | active    | false
            """)
    void aSubscriptionIsStillChargedWhileItHasNotEndedNorIsUnpaidAndItsMandateIsActive(String story, String mandate,
                                                                                      boolean charged) {
        Subscription s = story("monthly, count 2", story).subscription;
        Mandate itsMandate = MandateTest.mandateIn(mandate);

        assertThat(s.stillCharged(itsMandate)).isEqualTo(charged);
        assertThat(itsMandate.stillCharged()).isEqualTo(mandate.equals("active"));
    }

    // ---- its date and its test clock --------------------------------------------------------------------------------

    @ParameterizedTest(name = "in {0} at {1}, clock {2}: {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # zone              | now                  | test clock | today
            Africa/Johannesburg | 2027-01-31T21:59:59Z | -          | 2027-01-31
            Africa/Johannesburg | 2027-01-31T22:00:00Z | -          | 2027-02-01
            Africa/Johannesburg | 2027-01-31T12:00:00Z | 2027-03-01 | 2027-03-01
            Africa/Johannesburg | 2027-01-31T12:00:00Z | 2027-01-31 | 2027-01-31
            Africa/Johannesburg | 2027-05-01T12:00:00Z | 2027-03-01 | 2027-05-01
            Africa/Johannesburg | 2027-02-28T22:30:00Z | 2027-02-28 | 2027-03-01
            Europe/London       | 2027-03-28T23:30:00Z | -          | 2027-03-29
            Europe/London       | 2027-10-31T23:30:00Z | -          | 2027-10-31
            """)
    void todayIsTheDateInItsZoneOrItsTestClocksWhenThatIsLater(ZoneId zone, Instant now, LocalDate clock,
                                                               LocalDate today) {
        Subscription s = create("monthly, " + zone.getId(), FIRST_PAYMENT).subscription();
        if (clock != null) {
            s.clockAt(clock, CREATED);
        }

        assertThat(s.today(now)).isEqualTo(today);
    }

    @Test
    void aTestClockMovesForwardOrStaysButNeverMovesBack() {
        Subscription s = create("monthly", FIRST_PAYMENT).subscription();
        Instant later = CREATED.plusSeconds(60);

        s.clockAt(LocalDate.of(2027, 3, 1), later);
        assertThat(s.clockDate()).isEqualTo(LocalDate.of(2027, 3, 1));
        assertThat(s.updatedAt()).isEqualTo(later);

        s.clockAt(LocalDate.of(2027, 3, 1), later.plusSeconds(60));
        assertThat(s.updatedAt()).as("the same date moves nothing").isEqualTo(later);

        assertThatThrownBy(() -> s.clockAt(LocalDate.of(2027, 2, 28), later.plusSeconds(120)))
                .isInstanceOf(IllegalStateException.class);
        assertThat(s.clockDate()).isEqualTo(LocalDate.of(2027, 3, 1));

        s.clockAt(LocalDate.of(2027, 3, 2), later.plusSeconds(180));
        assertThat(s.clockDate()).isEqualTo(LocalDate.of(2027, 3, 2));
    }
}
