package io.tender.subscription;

import io.tender.subscription.MandateTerms.Type;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.time.LocalDate;
import java.time.ZoneId;

import static io.tender.subscription.SeriesTerms.amount;
import static io.tender.subscription.SeriesTerms.constraint;
import static io.tender.subscription.SeriesTerms.limit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A mandate and a subscription keep their terms as {@code wire()} writes them (the JSON the API shows and the row
 * stores), and read them back with {@code restore}: every kind of terms comes back equal, through JSON text as the
 * database gives it. {@code -} in a row is none.
 */
class SeriesTermsRoundTripTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The wire form as stored: written to JSON text and parsed again. */
    private static JsonNode stored(Object wire) {
        return JSON.readTree(JSON.writeValueAsString(wire));
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # type        | amount             | constraint            | period limit          | start      | end        | installments | zone
            scheduled     | fixed 9900         | day_of_month 1        | -                     | 2026-12-01 | -          | -            | Africa/Johannesburg
            scheduled     | fixed 9900         | day_of_month 31       | -                     | 2026-12-01 | 2027-12-31 | -            | Europe/London
            scheduled     | fixed 9900         | day_of_month -1       | month calendar - 1    | 2026-12-01 | -          | -            | Africa/Johannesburg
            scheduled     | variable 100 5000  | day_of_week 7         | week cycle 10000 -    | 2026-12-01 | -          | -            | America/New_York
            scheduled     | fixed 9900         | day_of_year 366       | year calendar 9900 1  | 2026-12-01 | 2026-12-01 | -            | Asia/Kolkata
            scheduled     | fixed 9900         | nth_day_of_month 1 1  | -                     | 2026-12-01 | -          | -            | Africa/Johannesburg
            scheduled     | fixed 9900         | nth_day_of_month -1 5 | month cycle 50000 5   | 2026-12-01 | -          | -            | Africa/Johannesburg
            installment   | fixed 40000        | day_of_month 15       | -                     | 2027-01-01 | -          | 3            | Africa/Johannesburg
            installment   | variable 1 99999999 | day_of_week 1        | month calendar - 2    | 2027-01-01 | 2027-06-30 | 1000         | Pacific/Auckland
            on_demand     | variable 100 50000 | -                     | -                     | 2026-12-01 | -          | -            | Africa/Johannesburg
            on_demand     | fixed 1            | -                     | week calendar 1 1000  | 2026-12-01 | 2027-01-01 | -            | UTC
            """)
    void mandateTermsReadBackAsTheyWereWritten(String type, String amount, String constraint, String limit,
                                              LocalDate start, LocalDate end, Integer installments, ZoneId zone) {
        var terms = new MandateTerms(Type.valueOf(type.toUpperCase()), amount(amount), constraint(constraint),
                limit(limit), start, end, installments, zone);

        assertThat(MandateTerms.restore(stored(terms.wire()))).isEqualTo(terms);
    }

    @ParameterizedTest(name = "every {1} {0} from {3} (first index {4}), {5} to {6}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # interval | count | amount   | anchor     | first index | start      | end        | zone
            monthly    | 1     | 9900     | 2027-01-31 | 1           | 2027-02-28 | -          | Africa/Johannesburg
            monthly    | 12    | 99999999 | 2028-02-29 | 0           | 2028-02-29 | 2032-02-29 | Europe/London
            weekly     | 2     | 1        | 2027-01-01 | 0           | 2027-01-01 | 2027-03-26 | America/New_York
            daily      | 3     | 500      | 2027-02-26 | 1           | 2027-03-01 | 2027-03-01 | Africa/Johannesburg
            """)
    void aSubscriptionsMandateReadsBackWithItsInterval(String interval, int count, long amount, LocalDate anchor,
                                                      int firstIndex, LocalDate start, LocalDate end, ZoneId zone) {
        var subscription = SubscriptionTerms.openEnded(SubscriptionTerms.Interval.valueOf(interval.toUpperCase()),
                count, amount, zone);
        var terms = MandateTerms.ofSubscription(subscription, anchor, firstIndex, start, end, zone);

        MandateTerms restored = MandateTerms.restore(stored(terms.wire()));

        assertThat(restored).isEqualTo(terms);
        assertThat(restored.constraint()).isEqualTo(new MandateTerms.Every(subscription.interval(), count, anchor,
                firstIndex));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # terms
            monthly
            monthly 12, from 2027-01-31, until 2028-01-31
            weekly 2, from 2027-01-01, count 6, notice 0, cancelled
            daily 3, count 1000, notice 30, Europe/London
            daily, until 2027-01-10, America/Santiago
            """)
    void subscriptionTermsReadBackAsTheyWereWritten(String words) {
        SubscriptionTerms terms = SubscriptionTest.terms(words);

        assertThat(SubscriptionTerms.restore(stored(terms.wire()))).isEqualTo(terms);
    }
}
