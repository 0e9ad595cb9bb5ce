package io.tender.subscription;

import io.tender.subscription.MandateTerms.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.LocalDate;

import static io.tender.subscription.SeriesTerms.amount;
import static io.tender.subscription.SeriesTerms.constraint;
import static io.tender.subscription.SeriesTerms.limit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sentence the checkout shows above the pay button (decisions §8), which the customer agrees to by paying: one row
 * per kind of terms. Acme charges in ZAR; {@code -} in a row is none.
 */
class MandateWordsTest {

    @ParameterizedTest(name = "{0} {1} {2}: {6}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # type        | amount            | constraint            | start      | end        | installments | sentence
            scheduled     | fixed 9900        | day_of_month 1        | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 1st, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 2        | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 2nd, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 3        | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 3rd, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 4        | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 4th, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 11       | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 11th, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 12       | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 12th, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 13       | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 13th, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 21       | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 21st, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 22       | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 22nd, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 23       | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 23rd, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 28       | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 28th, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 29       | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 29th (the last day of shorter months), from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 30       | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 30th (the last day of shorter months), from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 31       | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the 31st (the last day of shorter months), from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month -1       | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every month on the last day, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_week 1         | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every Monday, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_week 7         | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every Sunday, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_year 1         | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every year on day 1 of the year, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_year 365       | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every year on day 365 of the year, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_year 366       | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 every year on the last day of the year, from 1 December 2026.
            scheduled     | fixed 9900        | nth_day_of_month 1 1  | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 on the first Monday of every month, from 1 December 2026.
            scheduled     | fixed 9900        | nth_day_of_month 2 2  | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 on the second Tuesday of every month, from 1 December 2026.
            scheduled     | fixed 9900        | nth_day_of_month 3 3  | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 on the third Wednesday of every month, from 1 December 2026.
            scheduled     | fixed 9900        | nth_day_of_month 4 4  | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 on the fourth Thursday of every month, from 1 December 2026.
            scheduled     | fixed 9900        | nth_day_of_month -1 5 | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 on the last Friday of every month, from 1 December 2026.
            scheduled     | fixed 9900        | nth_day_of_month -1 6 | 2026-12-01 | -          | -            | You allow Acme to charge this card ZAR 99.00 on the last Saturday of every month, from 1 December 2026.
            scheduled     | variable 100 50000 | day_of_month 15      | 2026-12-01 | -          | -            | You allow Acme to charge this card from ZAR 1.00 to ZAR 500.00 every month on the 15th, from 1 December 2026.
            scheduled     | fixed 9900        | day_of_month 1        | 2026-12-01 | 2027-11-30 | -            | You allow Acme to charge this card ZAR 99.00 every month on the 1st, from 1 December 2026 until 30 November 2027.
            on_demand     | fixed 9900        | -                     | 2026-12-01 | -          | -            | You allow Acme to charge this card when they ask, ZAR 99.00 each time, from 1 December 2026.
            on_demand     | variable 1 99999999 | -                   | 2027-01-09 | 2027-02-28 | -            | You allow Acme to charge this card when they ask, from ZAR 0.01 to ZAR 999999.99 each time, from 9 January 2027 until 28 February 2027.
            installment   | fixed 40000       | day_of_month 1        | 2027-01-01 | -          | 3            | You allow Acme to charge this card ZAR 400.00 in 3 installments, every month on the 1st, from 1 January 2027.
            installment   | fixed 40000       | day_of_week 5         | 2027-01-01 | -          | 1            | You allow Acme to charge this card ZAR 400.00 in 1 installment, every Friday, from 1 January 2027.
            installment   | fixed 40000       | nth_day_of_month -1 1 | 2027-01-01 | 2027-12-31 | 12           | You allow Acme to charge this card ZAR 400.00 in 12 installments, on the last Monday of every month, from 1 January 2027 until 31 December 2027.
            """)
    void theTermsOfAMandateInPlainWords(String type, String amount, String constraint, LocalDate start,
                                        LocalDate end, Integer installments, String sentence) {
        var terms = new MandateTerms(Type.valueOf(type.toUpperCase()), amount(amount), constraint(constraint), null,
                start, end, installments, MandateTerms.DEFAULT_ZONE);

        assertThat(MandateWords.of(terms, "Acme", "ZAR")).isEqualTo(sentence);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # period limit         | the sentence's end
            month calendar 50000 - | from 1 December 2026. At most ZAR 500.00 per calendar month.
            week calendar - 4      | from 1 December 2026. At most 4 charges per calendar week.
            year calendar - 1      | from 1 December 2026. At most 1 charge per calendar year.
            month calendar 50000 2 | from 1 December 2026. At most ZAR 500.00 and 2 charges per calendar month.
            month cycle - 3        | from 1 December 2026. At most 3 charges per month counted from 1 December 2026.
            week cycle 100000 -    | from 1 December 2026. At most ZAR 1000.00 per week counted from 1 December 2026.
            year cycle 120000 12   | from 1 December 2026. At most ZAR 1200.00 and 12 charges per year counted from 1 December 2026.
            """)
    void aPeriodLimitIsASecondSentenceNamingItsPeriodAndHowItIsCounted(String limit, String ending) {
        var terms = new MandateTerms(Type.ON_DEMAND, amount("variable 100 50000"), null, limit(limit),
                LocalDate.of(2026, 12, 1), null, null, MandateTerms.DEFAULT_ZONE);

        assertThat(MandateWords.of(terms, "Acme", "ZAR")).isEqualTo(
                "You allow Acme to charge this card when they ask, from ZAR 1.00 to ZAR 500.00 each time, " + ending);
    }

    @Test
    void amountsAreShownInTheCurrencysOwnMinorUnits() {
        var terms = new MandateTerms(Type.SCHEDULED, amount("fixed 990"), constraint("day_of_month 1"),
                limit("month calendar 5000 -"), LocalDate.of(2026, 12, 1), null, null, MandateTerms.DEFAULT_ZONE);

        assertThat(MandateWords.of(terms, "Acme", "JPY")).isEqualTo("You allow Acme to charge this card JPY 990 every"
                + " month on the 1st, from 1 December 2026. At most JPY 5000 per calendar month.");
    }

    @ParameterizedTest(name = "every {1} {0}: {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # interval | count | first charge | sentence
            monthly    | 1     | 2027-02-28   | You allow Acme to charge this card ZAR 99.00 every month, from 28 February 2027.
            monthly    | 3     | 2027-02-28   | You allow Acme to charge this card ZAR 99.00 every 3 months, from 28 February 2027.
            weekly     | 1     | 2027-02-07   | You allow Acme to charge this card ZAR 99.00 every week, from 7 February 2027.
            weekly     | 2     | 2027-02-14   | You allow Acme to charge this card ZAR 99.00 every 2 weeks, from 14 February 2027.
            daily      | 1     | 2027-02-01   | You allow Acme to charge this card ZAR 99.00 every day, from 1 February 2027.
            """)
    void theMandateOfASubscriptionInPlainWords(String interval, int count, LocalDate firstCharge, String sentence) {
        var subscription = SubscriptionTerms.openEnded(SubscriptionTerms.Interval.valueOf(interval.toUpperCase()),
                count, 9900, MandateTerms.DEFAULT_ZONE);
        var terms = MandateTerms.ofSubscription(subscription, LocalDate.of(2027, 1, 31), 1, firstCharge, null,
                MandateTerms.DEFAULT_ZONE);

        assertThat(MandateWords.of(terms, "Acme", "ZAR")).isEqualTo(sentence);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # terms                                    | first charge | sentence
            monthly                                    | 2027-02-28   | You allow Acme to charge this card ZAR 99.00 every month, from 28 February 2027. You can ask Acme to cancel at any time.
            monthly 12                                 | 2028-01-31   | You allow Acme to charge this card ZAR 99.00 every 12 months, from 31 January 2028. You can ask Acme to cancel at any time.
            weekly 2                                   | 2027-02-14   | You allow Acme to charge this card ZAR 99.00 every 2 weeks, from 14 February 2027. You can ask Acme to cancel at any time.
            daily                                      | 2027-02-01   | You allow Acme to charge this card ZAR 99.00 every day, from 1 February 2027. You can ask Acme to cancel at any time.
            daily 3                                    | 2027-02-03   | You allow Acme to charge this card ZAR 99.00 every 3 days, from 3 February 2027. You can ask Acme to cancel at any time.
            monthly, count 12                          | 2027-02-28   | You allow Acme to charge this card ZAR 99.00 every month, 12 times, from 28 February 2027. You can ask Acme to cancel at any time.
            weekly, from 2027-02-05, until 2027-12-31  | 2027-02-05   | You allow Acme to charge this card ZAR 99.00 every week, from 5 February 2027 until 31 December 2027. You can ask Acme to cancel at any time.
            """)
    void theTermsOfASubscriptionInPlainWords(String terms, LocalDate firstCharge, String sentence) {
        assertThat(MandateWords.of(SubscriptionTest.terms(terms), firstCharge, "Acme", "ZAR")).isEqualTo(sentence);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            1   | 1st
            2   | 2nd
            3   | 3rd
            4   | 4th
            10  | 10th
            11  | 11th
            12  | 12th
            13  | 13th
            14  | 14th
            20  | 20th
            21  | 21st
            22  | 22nd
            23  | 23rd
            24  | 24th
            30  | 30th
            31  | 31st
            101 | 101st
            111 | 111th
            112 | 112th
            113 | 113th
            """)
    void ordinalsEndInStNdRdOrThAndTheTeensInTh(int number, String ordinal) {
        assertThat(MandateWords.ordinal(number)).isEqualTo(ordinal);
    }
}
