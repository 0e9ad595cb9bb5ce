package io.tender.subscription;

import io.tender.payment.Acceptance;
import io.tender.auth.Mode;
import io.tender.subscription.MandateTerms.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static io.tender.subscription.SeriesTerms.amount;
import static io.tender.subscription.SeriesTerms.constraint;
import static io.tender.subscription.SeriesTerms.limit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The mandate aggregate of decisions §8, as tables: every rule a charge is held to and the order they are checked in,
 * what a succeeded charge counts, the ends of a mandate (cancelled, completed, after its last installment), and what
 * it shows a merchant of its future (the next execution date, the installments remaining, when it ends by itself, the
 * coming dates with what the period limit allows). Mandates are in ZAR, in Johannesburg, from 1 January 2027 unless a
 * row says otherwise; {@code -} in a row is none.
 */
class MandateTest {

    private static final Instant NOW = Instant.parse("2027-01-01T08:00:00Z");
    private static final LocalDate START = LocalDate.of(2027, 1, 1);
    private static final ZoneId JOHANNESBURG = ZoneId.of("Africa/Johannesburg");

    // ---- fixtures ---------------------------------------------------------------------------------------------------

    /**
     * A new mandate, its first payment counted. {@code type} is {@code scheduled}, {@code on_demand} or
     * {@code installment N}.
     */
    private static Mandate mandate(String type, String amount, String constraint, String limit, LocalDate start,
                                   LocalDate end, ZoneId zone) {
        String[] t = type.split(" ");
        Integer installments = t.length > 1 ? Integer.valueOf(t[1]) : null;
        var terms = new MandateTerms(Type.valueOf(t[0].toUpperCase()), amount(amount), constraint(constraint),
                limit(limit), start, end, installments, zone);
        return Mandate.created(new Mandate.Terms("mdt_1", "mer_1", Mode.TEST, "bcus_1", "pm_1",
                Map.of("type", "card"), "ZAR", terms, new Acceptance(NOW, "203.0.113.7", "Firefox"), "pay_0",
                null, Map.of(), NOW));
    }

    private static Mandate mandate(String type, String amount, String constraint, String limit) {
        return mandate(type, amount, constraint, limit, START, null, JOHANNESBURG);
    }

    /** A mandate moved to {@code status} through its own transitions. */
    private static Mandate in(String status, Mandate m) {
        switch (status) {
            case "active" -> {
            }
            case "cancelled" -> m.cancel(NOW);
            case "completed" -> m.complete(NOW);
            default -> throw new IllegalArgumentException("no such status: " + status);
        }
        return m;
    }

    /** A monthly scheduled mandate of ZAR 99.00 moved to {@code status} (the series tables' mandate of a subscription). */
    static Mandate mandateIn(String status) {
        return in(status, mandate("scheduled", "fixed 9900", "day_of_month 31", null));
    }

    /** {@code "amount count"} of the period so far; none for null. */
    private static Mandate.Usage usage(String words) {
        if (words == null) {
            return Mandate.Usage.NONE;
        }
        String[] w = words.split(" ");
        return new Mandate.Usage(Long.parseLong(w[0]), Integer.parseInt(w[1]));
    }

    /** A charge of {@code "9900 ZAR"} on {@code today}: {@code allowed}, or the refusal in the table's words. */
    private static String charge(Mandate m, String charge, LocalDate today, String usage) {
        String[] c = charge.split(" ");
        return refusal(m.refuseCharge(Long.parseLong(c[0]), c[1], today,
                new Mandate.Taken(usage(usage), 0, false)));
    }

    private static String refusal(Optional<SeriesRejection> refused) {
        return refused.map(r -> switch (r) {
            case SeriesRejection.MandateNotActive n -> "not active: " + n.status();
            case SeriesRejection.CurrencyNotAllowed c -> "currency " + c.currency() + ", not " + c.asked();
            case SeriesRejection.AmountNotFixedValue a -> "amount fixed at " + a.value() + ", not " + a.asked();
            case SeriesRejection.AmountOutsideRange a -> "amount " + a.min() + " to " + a.max() + ", not " + a.asked();
            case SeriesRejection.NotAnExecutionDate n -> "not an execution date, next " + dash(n.next());
            case SeriesRejection.OutsideMandateDates o -> "outside its dates " + o.start() + " to " + dash(o.end());
            case SeriesRejection.NoInstallmentLeft n -> "no installment left: " + n.taken() + " of "
                    + n.installments() + " taken";
            case SeriesRejection.AlreadyChargedOnDate a -> "already charged on " + a.date();
            case SeriesRejection.PeriodCountExceeded p -> "max_count " + p.max() + " with " + p.count() + " made, "
                    + p.start() + " to " + p.end();
            case SeriesRejection.PeriodAmountExceeded p -> "max_amount " + p.max() + " with " + p.taken()
                    + " taken and " + p.asked() + " asked, " + p.start() + " to " + p.end();
            default -> throw new IllegalStateException("not a charge's refusal: " + r);
        }).orElse("allowed");
    }

    private static String dash(Object value) {
        return value == null ? "-" : value.toString();
    }

    // ---- the charge rules -------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} {1} {2}, {3}: {4} on {5} is {6}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # type        | amount         | constraint      | status    | charge    | today      | refused
            scheduled     | fixed 9900     | day_of_month 15 | active    | 9900 ZAR  | 2027-01-15 | allowed
            scheduled     | fixed 9900     | day_of_month 15 | cancelled | 9900 ZAR  | 2027-01-15 | not active: cancelled
            scheduled     | fixed 9900     | day_of_month 15 | completed | 9900 ZAR  | 2027-01-15 | not active: completed
            on_demand     | variable 1 10  | -               | cancelled | 5 ZAR     | 2027-01-15 | not active: cancelled
            scheduled     | fixed 9900     | day_of_month 15 | active    | 9900 USD  | 2027-01-15 | currency ZAR, not USD
            scheduled     | fixed 9900     | day_of_month 15 | active    | 9899 ZAR  | 2027-01-15 | amount fixed at 9900, not 9899
            scheduled     | fixed 9900     | day_of_month 15 | active    | 9901 ZAR  | 2027-01-15 | amount fixed at 9900, not 9901
            on_demand     | variable 100 5000 | -            | active    | 99 ZAR    | 2027-01-15 | amount 100 to 5000, not 99
            on_demand     | variable 100 5000 | -            | active    | 100 ZAR   | 2027-01-15 | allowed
            on_demand     | variable 100 5000 | -            | active    | 5000 ZAR  | 2027-01-15 | allowed
            on_demand     | variable 100 5000 | -            | active    | 5001 ZAR  | 2027-01-15 | amount 100 to 5000, not 5001
            scheduled     | variable 100 5000 | day_of_month 15 | active | 2500 ZAR  | 2027-02-15 | allowed
            scheduled     | fixed 9900     | day_of_month 15 | active    | 9900 ZAR  | 2027-01-14 | not an execution date, next 2027-01-15
            scheduled     | fixed 9900     | day_of_month 15 | active    | 9900 ZAR  | 2027-01-16 | not an execution date, next 2027-02-15
            scheduled     | fixed 9900     | day_of_month 15 | active    | 9900 ZAR  | 2026-12-15 | not an execution date, next 2027-01-15
            scheduled     | fixed 9900     | day_of_month 31 | active    | 9900 ZAR  | 2027-02-28 | allowed
            scheduled     | fixed 9900     | day_of_month 31 | active    | 9900 ZAR  | 2027-03-28 | not an execution date, next 2027-03-31
            scheduled     | fixed 9900     | day_of_month -1 | active    | 9900 ZAR  | 2027-04-30 | allowed
            scheduled     | fixed 9900     | day_of_week 1   | active    | 9900 ZAR  | 2027-01-05 | not an execution date, next 2027-01-11
            scheduled     | fixed 9900     | day_of_year 366 | active    | 9900 ZAR  | 2027-12-31 | allowed
            scheduled     | fixed 9900     | nth_day_of_month -1 5 | active | 9900 ZAR | 2027-01-22 | not an execution date, next 2027-01-29
            installment 3 | fixed 40000    | day_of_month 15 | active    | 40000 ZAR | 2027-03-15 | allowed
            installment 3 | fixed 40000    | day_of_month 15 | active    | 40000 ZAR | 2027-03-16 | not an execution date, next -
            installment 3 | fixed 40000    | day_of_month 15 | active    | 40000 ZAR | 2027-04-15 | not an execution date, next -
            on_demand     | fixed 9900     | -               | active    | 9900 ZAR  | 2027-01-14 | allowed
            on_demand     | fixed 9900     | -               | active    | 9900 ZAR  | 2027-06-03 | allowed
            """)
    void aChargeIsAllowedOnlyByAnActiveMandateInItsCurrencyForItsAmountOnAnExecutionDate(
            String type, String amount, String constraint, String status, String charge, LocalDate today,
            String refused) {
        Mandate m = in(status, mandate(type, amount, constraint, null));

        assertThat(charge(m, charge, today, null)).isEqualTo(refused);
    }

    @ParameterizedTest(name = "on_demand from {0} to {1}: a charge on {2} is {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # start    | end        | today      | refused
            2027-01-01 | 2027-06-30 | 2026-12-31 | outside its dates 2027-01-01 to 2027-06-30
            2027-01-01 | 2027-06-30 | 2027-01-01 | allowed
            2027-01-01 | 2027-06-30 | 2027-03-17 | allowed
            2027-01-01 | 2027-06-30 | 2027-06-30 | allowed
            2027-01-01 | 2027-06-30 | 2027-07-01 | outside its dates 2027-01-01 to 2027-06-30
            2027-01-01 | -          | 2026-12-31 | outside its dates 2027-01-01 to -
            2027-01-01 | -          | 2037-01-01 | allowed
            """)
    void anOnDemandMandateIsChargedAnyDayFromItsStartDateToItsEndDate(LocalDate start, LocalDate end,
                                                                      LocalDate today, String refused) {
        Mandate m = mandate("on_demand", "fixed 9900", null, null, start, end, JOHANNESBURG);

        assertThat(charge(m, "9900 ZAR", today, null)).isEqualTo(refused);
    }

    @ParameterizedTest(name = "{0} from {1}, {3} taken so far on {2}: {4} is {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # period limit        | start      | today      | usage    | charge    | refused
            month calendar - 2    | 2027-01-01 | 2027-01-20 | -        | 500 ZAR   | allowed
            month calendar - 2    | 2027-01-01 | 2027-01-20 | 500 1    | 500 ZAR   | allowed
            month calendar - 2    | 2027-01-01 | 2027-01-20 | 1000 2   | 500 ZAR   | max_count 2 with 2 made, 2027-01-01 to 2027-01-31
            month cycle - 2       | 2027-01-15 | 2027-02-10 | 1000 2   | 500 ZAR   | max_count 2 with 2 made, 2027-01-15 to 2027-02-14
            month cycle - 2       | 2027-01-31 | 2027-02-28 | 1000 2   | 500 ZAR   | max_count 2 with 2 made, 2027-02-28 to 2027-03-30
            week calendar - 1     | 2027-01-06 | 2027-01-10 | 500 1    | 500 ZAR   | max_count 1 with 1 made, 2027-01-04 to 2027-01-10
            week cycle - 1        | 2027-01-06 | 2027-01-10 | 500 1    | 500 ZAR   | max_count 1 with 1 made, 2027-01-06 to 2027-01-12
            year calendar - 12    | 2027-06-01 | 2028-02-29 | 6000 12  | 500 ZAR   | max_count 12 with 12 made, 2028-01-01 to 2028-12-31
            year cycle - 12       | 2027-06-01 | 2028-02-29 | 6000 12  | 500 ZAR   | max_count 12 with 12 made, 2027-06-01 to 2028-05-31
            month calendar 20000 - | 2027-01-15 | 2027-02-10 | 15000 3 | 5000 ZAR  | allowed
            month calendar 20000 - | 2027-01-15 | 2027-02-10 | 15000 3 | 5001 ZAR  | max_amount 20000 with 15000 taken and 5001 asked, 2027-02-01 to 2027-02-28
            month cycle 20000 -   | 2027-01-15 | 2027-02-10 | 15000 3  | 5001 ZAR  | max_amount 20000 with 15000 taken and 5001 asked, 2027-01-15 to 2027-02-14
            month cycle 20000 -   | 2027-01-15 | 2027-02-15 | -        | 20000 ZAR | allowed
            week calendar 5000 9  | 2027-01-01 | 2027-01-10 | 0 0      | 5000 ZAR  | allowed
            week calendar 5000 9  | 2027-01-01 | 2027-01-10 | 0 0      | 5001 ZAR  | max_amount 5000 with 0 taken and 5001 asked, 2027-01-04 to 2027-01-10
            """)
    void thePeriodLimitCountsWhatThePeriodHoldingTodayTookAndAllowsUpToTheLimitExactly(
            String limit, LocalDate start, LocalDate today, String usage, String charge, String refused) {
        Mandate m = mandate("on_demand", "variable 100 50000", null, limit, start, null, JOHANNESBURG);

        assertThat(charge(m, charge, today, usage)).isEqualTo(refused);
    }

    @ParameterizedTest(name = "{0}, {1} on {2} with {3} taken: {4}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # status  | charge   | today      | usage   | refused: the first rule broken, in this order
            cancelled | 100 USD  | 2027-01-14 | 19800 2 | not active: cancelled
            active    | 100 USD  | 2027-01-14 | 19800 2 | currency ZAR, not USD
            active    | 100 ZAR  | 2027-01-14 | 19800 2 | amount fixed at 9900, not 100
            active    | 9900 ZAR | 2027-01-14 | 19800 2 | not an execution date, next 2027-01-15
            active    | 9900 ZAR | 2027-01-15 | 19800 2 | max_count 2 with 2 made, 2027-01-01 to 2027-01-31
            active    | 9900 ZAR | 2027-01-15 | 9901 1  | max_amount 19800 with 9901 taken and 9900 asked, 2027-01-01 to 2027-01-31
            active    | 9900 ZAR | 2027-01-15 | 9900 1  | allowed
            """)
    void whenSeveralRulesBreakTheChargeIsRefusedForTheFirstOfThem(String status, String charge, LocalDate today,
                                                                  String usage, String refused) {
        Mandate m = in(status, mandate("scheduled", "fixed 9900", "day_of_month 15", "month calendar 19800 2"));

        assertThat(charge(m, charge, today, usage)).isEqualTo(refused);
    }

    @ParameterizedTest(name = "{0} {1}: {2} taken, on its date {3}, in the period {4}: {5} on {6} is {7}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # type        | limit                | installments taken | one on today | period usage | charge    | today      | refused
            installment 1 | -                    | 0                  | no           | -            | 40000 ZAR | 2027-01-15 | allowed
            installment 1 | -                    | 1                  | yes          | -            | 40000 ZAR | 2027-01-15 | no installment left: 1 of 1 taken
            installment 1 | -                    | 6                  | yes          | -            | 40000 ZAR | 2027-01-15 | no installment left: 6 of 1 taken
            installment 3 | -                    | 1                  | no           | -            | 40000 ZAR | 2027-02-15 | allowed
            installment 3 | -                    | 2                  | no           | -            | 40000 ZAR | 2027-03-15 | allowed
            installment 3 | -                    | 3                  | no           | -            | 40000 ZAR | 2027-03-15 | no installment left: 3 of 3 taken
            installment 3 | -                    | 1                  | yes          | -            | 40000 ZAR | 2027-01-15 | already charged on 2027-01-15
            scheduled     | -                    | 0                  | yes          | -            | 40000 ZAR | 2027-01-15 | already charged on 2027-01-15
            scheduled     | -                    | 7                  | no           | -            | 40000 ZAR | 2027-08-15 | allowed
            scheduled     | month calendar - 1   | 0                  | no           | 40000 1      | 40000 ZAR | 2027-01-15 | max_count 1 with 1 made, 2027-01-01 to 2027-01-31
            installment 3 | month calendar - 9   | 0                  | yes          | 40000 1      | 40000 ZAR | 2027-01-15 | already charged on 2027-01-15
            installment 2 | month calendar - 1   | 2                  | yes          | 40000 1      | 40000 ZAR | 2027-01-15 | no installment left: 2 of 2 taken
            on_demand     | -                    | 0                  | yes          | -            | 40000 ZAR | 2027-01-15 | allowed
            """)
    void chargesInFlightCountLikeSucceededOnesForTheInstallmentsLeftAndOneChargePerExecutionDate(
            String type, String limit, int installments, String onToday, String usage, String charge,
            LocalDate today, String refused) {
        Mandate m = mandate(type, "fixed 40000", type.equals("on_demand") ? null : "day_of_month 15", limit);
        String[] c = charge.split(" ");

        Optional<SeriesRejection> refusal = m.refuseCharge(Long.parseLong(c[0]), c[1], today,
                new Mandate.Taken(usage(usage), installments, onToday.equals("yes")));

        assertThat(refusal(refusal)).isEqualTo(refused);
    }

    // ---- what a charge counts, and the ends of a mandate ------------------------------------------------------------

    @ParameterizedTest(name = "{0}, {1} charges: {2}, {3} remaining, {4} payments, ended by {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # type        | charges | status    | installments remaining | payments_count | transition of the last
            scheduled     | 1       | active    | -                      | 2              | -
            scheduled     | 5       | active    | -                      | 6              | -
            on_demand     | 3       | active    | -                      | 4              | -
            installment 3 | 1       | active    | 2                      | 2              | -
            installment 3 | 2       | active    | 1                      | 3              | -
            installment 3 | 3       | completed | 0                      | 4              | COMPLETED
            installment 1 | 1       | completed | 0                      | 2              | COMPLETED
            """)
    void aSucceededChargeCountsAndTheLastInstallmentCompletesTheMandate(String type, int charges, String status,
                                                                        Integer remaining, int payments,
                                                                        Mandate.Transition ended) {
        Mandate m = mandate(type, "fixed 9900", type.equals("on_demand") ? null : "day_of_month 15", null);
        int version = m.version();

        Optional<Mandate.Transition> last = Optional.empty();
        for (int i = 0; i < charges; i++) {
            last = m.charged(NOW.plusSeconds(i + 1));
        }

        assertThat(m.status().wire()).isEqualTo(status);
        assertThat(m.installmentsRemaining()).isEqualTo(remaining);
        assertThat(m.paymentsCount()).as("the first payment counts too").isEqualTo(payments);
        assertThat(last).isEqualTo(Optional.ofNullable(ended));
        assertThat(m.version()).isEqualTo(version + charges + (ended == null ? 0 : 1));
        assertThat(m.updatedAt()).isEqualTo(NOW.plusSeconds(charges));
    }

    @Test
    void aNewMandateHasCountedItsFirstPaymentButNoInstallment() {
        Mandate m = mandate("installment 3", "fixed 40000", "day_of_month 15", null);

        assertThat(m.status()).isEqualTo(Mandate.Status.ACTIVE);
        assertThat(m.paymentsCount()).isEqualTo(1);
        assertThat(m.installmentsRemaining()).isEqualTo(3);
        assertThat(m.version()).isEqualTo(1);
        assertThat(m.cancelledAt()).isNull();
    }

    @Test
    void aChargeThatSucceedsAfterTheMandateWasCancelledIsCountedButEndsNothing() {
        Mandate m = in("cancelled", mandate("installment 1", "fixed 40000", "day_of_month 15", null));

        assertThat(m.charged(NOW)).isEmpty();
        assertThat(m.status()).isEqualTo(Mandate.Status.CANCELLED);
        assertThat(m.paymentsCount()).isEqualTo(2);
        assertThat(m.installmentsRemaining()).isZero();
    }

    @ParameterizedTest(name = "{1} from {0}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # from    | move     | status or refusal
            active    | cancel   | cancelled
            active    | complete | completed
            cancelled | cancel   | IllegalStateException
            cancelled | complete | IllegalStateException
            completed | cancel   | IllegalStateException
            completed | complete | IllegalStateException
            """)
    void onlyAnActiveMandateIsCancelledOrCompleted(String from, String move, String expected) {
        Mandate m = in(from, mandate("scheduled", "fixed 9900", "day_of_month 15", null));
        int version = m.version();
        Instant cancelledAt = m.cancelledAt();
        Instant later = NOW.plusSeconds(60);

        if (expected.equals("IllegalStateException")) {
            assertThatThrownBy(() -> move(m, move, later)).isInstanceOf(IllegalStateException.class);
            assertThat(m.status().wire()).as("unchanged").isEqualTo(from);
            assertThat(m.version()).isEqualTo(version);
            assertThat(m.cancelledAt()).isEqualTo(cancelledAt);
            return;
        }
        assertThat(move(m, move, later).eventType()).isEqualTo("mandate." + expected);
        assertThat(m.status().wire()).isEqualTo(expected);
        assertThat(m.version()).isEqualTo(version + 1);
        assertThat(m.updatedAt()).isEqualTo(later);
        assertThat(m.cancelledAt()).isEqualTo(expected.equals("cancelled") ? later : null);
    }

    private static Mandate.Transition move(Mandate m, String move, Instant at) {
        return move.equals("cancel") ? m.cancel(at) : m.complete(at);
    }

    // ---- what a mandate shows of its future -------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} {1} from {2} to {3}, {4}: next on {5} is {6}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # type        | constraint      | start      | end        | status    | today      | next execution date
            scheduled     | day_of_month 15 | 2027-01-01 | -          | active    | 2027-01-14 | 2027-01-15
            scheduled     | day_of_month 15 | 2027-01-01 | -          | active    | 2027-01-15 | 2027-01-15
            scheduled     | day_of_month 15 | 2027-01-01 | -          | active    | 2027-01-16 | 2027-02-15
            scheduled     | day_of_month 15 | 2027-03-01 | -          | active    | 2027-01-01 | 2027-03-15
            scheduled     | day_of_month 31 | 2027-01-01 | -          | active    | 2027-02-01 | 2027-02-28
            scheduled     | day_of_month 31 | 2027-01-01 | -          | active    | 2027-03-01 | 2027-03-31
            scheduled     | day_of_month 15 | 2027-01-01 | 2027-03-14 | active    | 2027-02-16 | -
            scheduled     | day_of_month 15 | 2027-01-01 | 2027-03-15 | active    | 2027-02-16 | 2027-03-15
            installment 3 | day_of_month 15 | 2027-01-01 | -          | active    | 2027-03-15 | 2027-03-15
            installment 3 | day_of_month 15 | 2027-01-01 | -          | active    | 2027-03-16 | -
            scheduled     | day_of_month 15 | 2027-01-01 | -          | cancelled | 2027-01-14 | -
            scheduled     | day_of_month 15 | 2027-01-01 | -          | completed | 2027-01-14 | -
            on_demand     | -               | 2027-01-01 | -          | active    | 2027-01-14 | -
            """)
    void theNextExecutionDateIsTheFirstOnOrAfterTodayWhileTheMandateRuns(String type, String constraint,
                                                                        LocalDate start, LocalDate end, String status,
                                                                        LocalDate today, LocalDate next) {
        Mandate m = in(status, mandate(type, "fixed 9900", constraint, null, start, end, JOHANNESBURG));

        assertThat(m.nextExecutionDate(today)).isEqualTo(Optional.ofNullable(next));
    }

    @ParameterizedTest(name = "{0} from {2} to {3} in {4}: ends at {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # type         | constraint      | start      | end        | zone                | ends at
            scheduled      | day_of_month 15 | 2027-01-01 | 2027-06-30 | Africa/Johannesburg | 2027-06-30T22:00:00Z
            scheduled      | day_of_month 15 | 2027-01-01 | 2027-06-10 | Africa/Johannesburg | 2027-06-10T22:00:00Z
            on_demand      | -               | 2027-01-01 | 2027-12-31 | Europe/London       | 2028-01-01T00:00:00Z
            on_demand      | -               | 2027-01-01 | 2027-06-30 | Europe/London       | 2027-06-30T23:00:00Z
            on_demand      | -               | 2027-01-01 | 2027-03-27 | Europe/London       | 2027-03-28T00:00:00Z
            on_demand      | -               | 2027-01-01 | 2027-03-28 | Europe/London       | 2027-03-28T23:00:00Z
            scheduled      | day_of_week 6   | 2027-01-01 | 2027-03-13 | America/New_York    | 2027-03-14T05:00:00Z
            installment 3  | day_of_month 15 | 2027-01-01 | -          | Africa/Johannesburg | 2027-03-15T22:00:00Z
            installment 3  | day_of_month 31 | 2027-12-01 | -          | Africa/Johannesburg | 2028-02-29T22:00:00Z
            installment 12 | day_of_month 15 | 2027-01-01 | 2027-03-20 | Africa/Johannesburg | 2027-03-15T22:00:00Z
            installment 2  | day_of_month 1  | 2027-01-02 | 2027-01-31 | Africa/Johannesburg | 2027-01-02T22:00:00Z
            scheduled      | day_of_month 15 | 2027-01-01 | -          | Africa/Johannesburg | -
            on_demand      | -               | 2027-01-01 | -          | Africa/Johannesburg | -
            """)
    void aMandateEndsByItselfAtTheStartOfTheDayAfterItsEndDateOrItsLastInstallmentInItsZone(
            String type, String constraint, LocalDate start, LocalDate end, ZoneId zone, Instant endsAt) {
        Mandate m = mandate(type, "fixed 9900", constraint, null, start, end, zone);

        assertThat(m.endsAt()).isEqualTo(endsAt);
    }

    @ParameterizedTest(name = "{0}, {1} limit {2}, {3} taken, from {4}: {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # type        | amount          | constraint      | period limit          | taken per period     | today      | upcoming (date and what the limit says)
            scheduled     | fixed 9900      | day_of_month 31 | -                     | -                    | 2027-01-01 | 2027-01-31 ok, 2027-02-28 ok, 2027-03-31 ok, 2027-04-30 ok
            scheduled     | fixed 9900      | day_of_month 15 | month calendar - 1    | -                    | 2027-01-16 | 2027-02-15 ok, 2027-03-15 ok, 2027-04-15 ok
            scheduled     | fixed 9900      | day_of_month 15 | month calendar - 1    | 2027-02-01 9900 1    | 2027-01-16 | 2027-02-15 over, 2027-03-15 ok, 2027-04-15 ok
            scheduled     | fixed 9900      | day_of_week 1   | month calendar - 2    | -                    | 2027-01-01 | 2027-01-04 ok, 2027-01-11 ok, 2027-01-18 over, 2027-01-25 over, 2027-02-01 ok, 2027-02-08 ok, 2027-02-15 over
            scheduled     | fixed 9900      | day_of_week 1   | month calendar - 2    | 2027-01-01 9900 1    | 2027-01-01 | 2027-01-04 ok, 2027-01-11 over, 2027-01-18 over, 2027-01-25 over, 2027-02-01 ok
            scheduled     | fixed 9900      | day_of_week 1   | month calendar 25000 - | 2027-01-01 9900 1   | 2027-01-01 | 2027-01-04 ok, 2027-01-11 over, 2027-01-18 over, 2027-01-25 over, 2027-02-01 ok, 2027-02-08 ok, 2027-02-15 over
            scheduled     | variable 1000 5000 | day_of_week 1 | month calendar 2500 - | -                   | 2027-01-01 | 2027-01-04 ok, 2027-01-11 ok, 2027-01-18 over, 2027-01-25 over, 2027-02-01 ok
            scheduled     | fixed 9900      | day_of_week 1   | week cycle - 1        | 2027-01-08 9900 1    | 2027-01-04 | 2027-01-04 ok, 2027-01-11 over, 2027-01-18 ok
            installment 3 | fixed 40000     | day_of_month 15 | -                     | -                    | 2027-01-01 | 2027-01-15 ok, 2027-02-15 ok, 2027-03-15 ok
            installment 3 | fixed 40000     | day_of_month 15 | -                     | -                    | 2027-02-01 | 2027-02-15 ok, 2027-03-15 ok
            """)
    void upcomingListsTheComingDatesWithWhatThePeriodLimitAllowsCountingTheDatesListedBeforeThem(
            String type, String amount, String constraint, String limit, String taken, LocalDate today,
            String expected) {
        Mandate m = mandate(type, amount, constraint, limit, START, null, JOHANNESBURG);
        Long shown = amount.startsWith("fixed") ? Long.valueOf(amount.split(" ")[1]) : null;
        int count = expected.split(", ").length;

        List<Mandate.Upcoming> upcoming = m.upcoming(today, count, (start, end) -> taken(taken, start));

        assertThat(upcoming).extracting(Mandate.Upcoming::amount).containsOnly(shown);
        assertThat(upcoming.stream().map(u -> u.date() + (u.allowed() ? " ok" : " over"))
                .collect(Collectors.joining(", "))).isEqualTo(expected);
    }

    /** {@code "period-start amount count"}: what that period took; every other period took nothing. */
    private static Mandate.Usage taken(String words, LocalDate periodStart) {
        if (words == null) {
            return Mandate.Usage.NONE;
        }
        String[] w = words.split(" ");
        return LocalDate.parse(w[0]).equals(periodStart) ? usage(w[1] + " " + w[2]) : Mandate.Usage.NONE;
    }

    @ParameterizedTest(name = "{0} installments, {1} charged: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # installments | charged | upcoming
            3              | 0       | 2027-01-15 2027-02-15 2027-03-15
            3              | 1       | 2027-01-15 2027-02-15
            3              | 2       | 2027-01-15
            12             | 10      | 2027-01-15 2027-02-15
            """)
    void upcomingShowsNoMoreDatesThanTheInstallmentsRemaining(int installments, int charged, String expected) {
        Mandate m = mandate("installment " + installments, "fixed 40000", "day_of_month 15", null);
        for (int i = 0; i < charged; i++) {
            m.charged(NOW);
        }

        assertThat(m.upcoming(START, MandateSchedule.MAX_UPCOMING, (start, end) -> Mandate.Usage.NONE))
                .extracting(Mandate.Upcoming::date)
                .containsExactlyElementsOf(Arrays.stream(expected.split(" ")).map(LocalDate::parse).toList());
    }

    @ParameterizedTest(name = "{0} {1}: none")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            on_demand     | -               | active
            scheduled     | day_of_month 15 | cancelled
            scheduled     | day_of_month 15 | completed
            installment 1 | day_of_month 15 | charged
            """)
    void upcomingIsEmptyForOnDemandAndEndedMandates(String type, String constraint, String status) {
        Mandate m = mandate(type, "fixed 9900", constraint, "month calendar - 5");
        if (status.equals("charged")) {
            m.charged(NOW);
        } else {
            in(status, m);
        }

        assertThat(m.upcoming(START, MandateSchedule.MAX_UPCOMING, (start, end) -> Mandate.Usage.NONE)).isEmpty();
    }

    @Test
    void upcomingAsksTheUsageOfEachPeriodOnceWithItsBounds() {
        Mandate m = mandate("scheduled", "fixed 9900", "day_of_week 1", "month calendar - 9");
        List<String> asked = new java.util.ArrayList<>();

        m.upcoming(START, 6, (start, end) -> {
            asked.add(start + " to " + end);
            return Mandate.Usage.NONE;
        });

        assertThat(asked).containsExactly("2027-01-01 to 2027-02-01", "2027-02-01 to 2027-03-01");
    }
}
