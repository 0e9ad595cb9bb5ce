package io.tender.subscription;

import io.tender.api.ApiException;
import io.tender.api.FieldError;
import io.tender.api.JsonInput;
import io.tender.subscription.MandateTerms.Type;
import io.tender.subscription.SubscriptionTerms.Interval;
import io.tender.subscription.SubscriptionTerms.OnFinalFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.json.JsonMapper;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.function.BiFunction;

import static io.tender.subscription.SeriesTerms.amount;
import static io.tender.subscription.SeriesTerms.constraint;
import static io.tender.subscription.SeriesTerms.limit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Reading {@code options.mandate_options} and {@code options.subscription_options} (decisions §8), as tables: each bad
 * combination is a 400 naming exactly the field at fault, and good options read as the terms they mean, defaults
 * filled in. A session amount of {@code -} is none (the caller passes null); 0 is a verification's.
 */
class MandateOptionsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** A row writes {@code {SCHEDULED,...}} ({@code ON_DEMAND}, {@code INSTALLMENT}): that type, 9900 fixed, from 1 Dec. */
    private static final String SHARED = ",\"amount\":{\"type\":\"fixed\",\"value\":9900},\"start_date\":\"2026-12-01\"";

    private record Read<T>(T terms, List<String> fields) {
    }

    private static <T> Read<T> read(String member, String json, String sessionAmount,
                                    BiFunction<JsonInput, Long, T> reader) {
        JsonInput body = JsonInput.body(JSON.readTree("{\"options\":{\"" + member + "\":" + json + "}}"));
        Long amount = sessionAmount.equals("-") ? null : Long.valueOf(sessionAmount);
        T terms = reader.apply(body.object("options", false), amount);
        ApiException e = catchThrowableOfType(ApiException.class, body::throwIfInvalid);
        return new Read<>(terms, e == null ? List.of() : e.errors().stream().map(FieldError::field).toList());
    }

    private static Read<MandateTerms> mandate(String json, String sessionAmount) {
        String expanded = json.replace("SCHEDULED", "\"type\":\"scheduled\"" + SHARED)
                .replace("ON_DEMAND", "\"type\":\"on_demand\"" + SHARED)
                .replace("INSTALLMENT", "\"type\":\"installment\"" + SHARED);
        return read("mandate_options", expanded, sessionAmount, MandateTerms::read);
    }

    private static Read<SubscriptionTerms> subscription(String json, String sessionAmount) {
        return read("subscription_options", json, sessionAmount, SubscriptionTerms::read);
    }

    // ---- mandate_options --------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} (session {1}): {2}")
    @CsvSource(delimiter = '|', textBlock = """
            "colour" | 9900 | options.mandate_options
            {SCHEDULED,"day_of_month":1,"colour":"red"} | 9900 | options.mandate_options.colour
            {"amount":{"type":"fixed","value":9900},"day_of_month":1,"start_date":"2026-12-01"} | 9900 | options.mandate_options.type
            {"type":"weekly","amount":{"type":"fixed","value":9900},"day_of_month":1,"start_date":"2026-12-01"} | 9900 | options.mandate_options.type
            {SCHEDULED} | 9900 | options.mandate_options
            {SCHEDULED,"day_of_month":1,"day_of_week":1} | 9900 | options.mandate_options.day_of_week
            {SCHEDULED,"nth_day_of_month":{"n":1,"day_of_week":1},"day_of_year":1} | 9900 | options.mandate_options.nth_day_of_month
            {SCHEDULED,"day_of_month":null} | 9900 | options.mandate_options.day_of_month
            {SCHEDULED,"day_of_month":"1"} | 9900 | options.mandate_options.day_of_month
            {SCHEDULED,"day_of_month":0} | 9900 | options.mandate_options.day_of_month
            {SCHEDULED,"day_of_month":32} | 9900 | options.mandate_options.day_of_month
            {SCHEDULED,"day_of_month":-2} | 9900 | options.mandate_options.day_of_month
            {SCHEDULED,"day_of_week":0} | 9900 | options.mandate_options.day_of_week
            {SCHEDULED,"day_of_week":8} | 9900 | options.mandate_options.day_of_week
            {SCHEDULED,"day_of_year":0} | 9900 | options.mandate_options.day_of_year
            {SCHEDULED,"day_of_year":367} | 9900 | options.mandate_options.day_of_year
            {SCHEDULED,"nth_day_of_month":{"n":0,"day_of_week":1}} | 9900 | options.mandate_options.nth_day_of_month.n
            {SCHEDULED,"nth_day_of_month":{"n":5,"day_of_week":1}} | 9900 | options.mandate_options.nth_day_of_month.n
            {SCHEDULED,"nth_day_of_month":{"n":-2,"day_of_week":1}} | 9900 | options.mandate_options.nth_day_of_month.n
            {SCHEDULED,"nth_day_of_month":{"n":1}} | 9900 | options.mandate_options.nth_day_of_month.day_of_week
            {SCHEDULED,"nth_day_of_month":{"n":1,"day_of_week":1,"month":2}} | 9900 | options.mandate_options.nth_day_of_month.month
            {SCHEDULED,"nth_day_of_month":3} | 9900 | options.mandate_options.nth_day_of_month
            {ON_DEMAND,"day_of_month":1} | 9900 | options.mandate_options.day_of_month
            {INSTALLMENT,"day_of_month":1} | 9900 | options.mandate_options.installments
            {INSTALLMENT,"day_of_month":1,"installments":0} | 9900 | options.mandate_options.installments
            {INSTALLMENT,"installments":3} | 9900 | options.mandate_options
            {SCHEDULED,"day_of_month":1,"installments":3} | 9900 | options.mandate_options.installments
            {ON_DEMAND,"installments":3} | 9900 | options.mandate_options.installments
            {"type":"scheduled","day_of_month":1,"start_date":"2026-12-01"} | 9900 | options.mandate_options.amount
            {"type":"scheduled","amount":{"type":"capped","value":9900},"day_of_month":1,"start_date":"2026-12-01"} | 9900 | options.mandate_options.amount.type
            {"type":"scheduled","amount":{"value":9900},"day_of_month":1,"start_date":"2026-12-01"} | 9900 | options.mandate_options.amount.type
            {"type":"scheduled","amount":{"type":"fixed","value":0},"day_of_month":1,"start_date":"2026-12-01"} | - | options.mandate_options.amount.value
            {"type":"scheduled","amount":{"type":"fixed","value":-500},"day_of_month":1,"start_date":"2026-12-01"} | - | options.mandate_options.amount.value
            {"type":"scheduled","amount":{"type":"fixed","value":100000000},"day_of_month":1,"start_date":"2026-12-01"} | - | options.mandate_options.amount.value
            {"type":"scheduled","amount":{"type":"fixed","value":9900,"max":9900},"day_of_month":1,"start_date":"2026-12-01"} | 9900 | options.mandate_options.amount.max
            {"type":"scheduled","amount":{"type":"fixed","value":9900},"day_of_month":1,"start_date":"2026-12-01"} | 10000 | options.mandate_options.amount.value
            {"type":"on_demand","amount":{"type":"variable","min":5000,"max":1000},"start_date":"2026-12-01"} | - | options.mandate_options.amount.max
            {"type":"on_demand","amount":{"type":"variable","min":0,"max":1000},"start_date":"2026-12-01"} | - | options.mandate_options.amount.min
            {"type":"on_demand","amount":{"type":"variable","max":1000},"start_date":"2026-12-01"} | - | options.mandate_options.amount.min
            {"type":"on_demand","amount":{"type":"variable","min":100,"max":1000},"start_date":"2026-12-01"} | 9900 | options.mandate_options.amount
            {SCHEDULED,"day_of_month":1,"period_limit":{"period":"month"}} | 9900 | options.mandate_options.period_limit
            {SCHEDULED,"day_of_month":1,"period_limit":{"period":"day","max_count":1}} | 9900 | options.mandate_options.period_limit.period
            {SCHEDULED,"day_of_month":1,"period_limit":{"max_count":1}} | 9900 | options.mandate_options.period_limit.period
            {SCHEDULED,"day_of_month":1,"period_limit":{"period":"month","alignment":"rolling","max_count":1}} | 9900 | options.mandate_options.period_limit.alignment
            {SCHEDULED,"day_of_month":1,"period_limit":{"period":"month","max_count":0}} | 9900 | options.mandate_options.period_limit.max_count
            {SCHEDULED,"day_of_month":1,"period_limit":{"period":"month","max_amount":9899}} | 9900 | options.mandate_options.period_limit.max_amount
            {"type":"scheduled","amount":{"type":"fixed","value":9900},"day_of_month":1} | 9900 | options.mandate_options.start_date
            {"type":"scheduled","amount":{"type":"fixed","value":9900},"day_of_month":1,"start_date":"2027-02-30"} | 9900 | options.mandate_options.start_date
            {"type":"scheduled","amount":{"type":"fixed","value":9900},"day_of_month":1,"start_date":"1 Dec 2026"} | 9900 | options.mandate_options.start_date
            {SCHEDULED,"day_of_month":1,"end_date":"2026-11-30"} | 9900 | options.mandate_options.end_date
            {SCHEDULED,"day_of_month":1,"time_zone":"Mars/Olympus_Mons"} | 9900 | options.mandate_options.time_zone
            {SCHEDULED,"day_of_month":1,"time_zone":"+02:00"} | 9900 | options.mandate_options.time_zone
            {SCHEDULED,"day_of_month":1,"time_zone":"UTC+2"} | 9900 | options.mandate_options.time_zone
            {SCHEDULED,"day_of_month":1,"time_zone":"africa/johannesburg"} | 9900 | options.mandate_options.time_zone
            """)
    void aBadMandateOptionIsA400NamingItsField(String json, String sessionAmount, String field) {
        Read<MandateTerms> read = mandate(json, sessionAmount);

        assertThat(read.fields()).containsExactly(field);
        assertThat(read.terms()).isNull();
    }

    @ParameterizedTest(name = "{0} (session {1})")
    @CsvSource(delimiter = '|', textBlock = """
            {SCHEDULED,"day_of_month":31} | 9900 | scheduled | fixed 9900 | day_of_month 31 |  | 2026-12-01 |  |  | Africa/Johannesburg
            {SCHEDULED,"day_of_month":-1,"end_date":"2027-12-31","time_zone":"Europe/London"} | 9900 | scheduled | fixed 9900 | day_of_month -1 |  | 2026-12-01 | 2027-12-31 |  | Europe/London
            {SCHEDULED,"day_of_week":7,"end_date":"2026-12-01"} | - | scheduled | fixed 9900 | day_of_week 7 |  | 2026-12-01 | 2026-12-01 |  | Africa/Johannesburg
            {SCHEDULED,"day_of_month":15} | 0 | scheduled | fixed 9900 | day_of_month 15 |  | 2026-12-01 |  |  | Africa/Johannesburg
            {SCHEDULED,"day_of_year":366} | 9900 | scheduled | fixed 9900 | day_of_year 366 |  | 2026-12-01 |  |  | Africa/Johannesburg
            {SCHEDULED,"nth_day_of_month":{"n":-1,"day_of_week":5},"period_limit":{"period":"month","max_count":1}} | 9900 | scheduled | fixed 9900 | nth_day_of_month -1 5 | month calendar - 1 | 2026-12-01 |  |  | Africa/Johannesburg
            {"type":"installment","amount":{"type":"fixed","value":40000},"day_of_month":1,"installments":3,"start_date":"2027-01-01"} | 40000 | installment | fixed 40000 | day_of_month 1 |  | 2027-01-01 |  | 3 | Africa/Johannesburg
            {"type":"on_demand","amount":{"type":"variable","min":100,"max":50000},"start_date":"2026-12-01","period_limit":{"period":"week","alignment":"cycle","max_amount":100000,"max_count":5}} | 9900 | on_demand | variable 100 50000 |  | week cycle 100000 5 | 2026-12-01 |  |  | Africa/Johannesburg
            {"type":"on_demand","amount":{"type":"variable","min":1,"max":99999999},"start_date":"2026-12-01","time_zone":"America/New_York"} | 0 | on_demand | variable 1 99999999 |  |  | 2026-12-01 |  |  | America/New_York
            """)
    void goodMandateOptionsReadAsTheTermsTheyMean(String json, String sessionAmount, String type, String amount,
                                                 String constraint, String limit, LocalDate start, LocalDate end,
                                                 Integer installments, ZoneId zone) {
        Read<MandateTerms> read = mandate(json, sessionAmount);

        assertThat(read.fields()).isEmpty();
        assertThat(read.terms()).isEqualTo(new MandateTerms(Type.valueOf(type.toUpperCase()), amount(amount),
                constraint(constraint), limit(limit), start, end, installments, zone));
    }

    @Test
    void everyProblemOfTheMandateOptionsIsReportedAtOnce() {
        Read<MandateTerms> read = mandate("""
                {"type":"installment","amount":{"type":"variable","min":0,"max":100},"day_of_month":0,"day_of_week":9,
                 "start_date":"2027-01-01","end_date":"2026-01-01","time_zone":"Nowhere","extra":true}""", "-");

        assertThat(read.fields()).containsExactlyInAnyOrder("options.mandate_options.extra",
                "options.mandate_options.amount.min", "options.mandate_options.day_of_week",
                "options.mandate_options.day_of_month", "options.mandate_options.day_of_week",
                "options.mandate_options.end_date", "options.mandate_options.installments",
                "options.mandate_options.time_zone");
        assertThat(read.terms()).isNull();
    }

    @Test
    void absentOptionsReadAsNone() {
        assertThat(read("checkout_options", "{}", "9900", MandateTerms::read)).isEqualTo(new Read<>(null, List.of()));
        assertThat(read("checkout_options", "{}", "9900", SubscriptionTerms::read)).isEqualTo(new Read<>(null, List.of()));
    }

    // ---- subscription_options ---------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} (session {1}): {2}")
    @CsvSource(delimiter = '|', textBlock = """
            [] | 9900 | options.subscription_options
            {} | 9900 | options.subscription_options.interval
            {"interval":"yearly"} | 9900 | options.subscription_options.interval
            {"interval":"monthly","interval_count":0} | 9900 | options.subscription_options.interval_count
            {"interval":"monthly","interval_count":13} | 9900 | options.subscription_options.interval_count
            {"interval":"monthly","amount":0} | 9900 | options.subscription_options.amount
            {"interval":"monthly","amount":100000000} | 9900 | options.subscription_options.amount
            {"interval":"monthly"} | 0 | options.subscription_options.amount
            {"interval":"monthly"} | - | options.subscription_options.amount
            {"interval":"monthly","start_date":"2027-13-01"} | 9900 | options.subscription_options.start_date
            {"interval":"monthly","start_date":"2027-02-01","end_date":"2027-01-31"} | 9900 | options.subscription_options.end_date
            {"interval":"monthly","end_date":"2027-12-31","count":12} | 9900 | options.subscription_options.count
            {"interval":"monthly","count":0} | 9900 | options.subscription_options.count
            {"interval":"monthly","notice_days":-1} | 9900 | options.subscription_options.notice_days
            {"interval":"monthly","notice_days":31} | 9900 | options.subscription_options.notice_days
            {"interval":"monthly","on_final_failure":"retry"} | 9900 | options.subscription_options.on_final_failure
            {"interval":"monthly","trial_days":7} | 9900 | options.subscription_options.trial_days
            {"interval":"monthly","time_zone":"Mars/Olympus_Mons"} | 9900 | options.subscription_options.time_zone
            {"interval":"monthly","time_zone":"Europe/Atlantis"} | 9900 | options.subscription_options.time_zone
            {"interval":"monthly","time_zone":"+02:00"} | 9900 | options.subscription_options.time_zone
            """)
    void aBadSubscriptionOptionIsA400NamingItsField(String json, String sessionAmount, String field) {
        Read<SubscriptionTerms> read = subscription(json, sessionAmount);

        assertThat(read.fields()).containsExactly(field);
        assertThat(read.terms()).isNull();
    }

    @ParameterizedTest(name = "{0} (session {1})")
    @CsvSource(delimiter = '|', textBlock = """
            {"interval":"monthly"} | 9900 | monthly | 1 | 9900 |  |  |  | 2 | unpaid
            {"interval":"daily","amount":500} | 0 | daily | 1 | 500 |  |  |  | 2 | unpaid
            {"interval":"weekly","interval_count":2,"amount":500,"start_date":"2027-01-01","count":6,"notice_days":0,"on_final_failure":"cancelled"} | 9900 | weekly | 2 | 500 | 2027-01-01 |  | 6 | 0 | cancelled
            {"interval":"monthly","interval_count":12,"start_date":"2027-01-31","end_date":"2027-01-31","notice_days":30} | 9900 | monthly | 12 | 9900 | 2027-01-31 | 2027-01-31 |  | 30 | unpaid
            """)
    void goodSubscriptionOptionsReadAsTheTermsTheyMeanWithTheirDefaults(String json, String sessionAmount,
                                                                        String interval, int intervalCount,
                                                                        long amount, LocalDate start, LocalDate end,
                                                                        Integer count, int noticeDays,
                                                                        String onFinalFailure) {
        Read<SubscriptionTerms> read = subscription(json, sessionAmount);

        assertThat(read.fields()).isEmpty();
        assertThat(read.terms()).isEqualTo(new SubscriptionTerms(Interval.valueOf(interval.toUpperCase()),
                intervalCount, amount, start, end, count, noticeDays,
                OnFinalFailure.valueOf(onFinalFailure.toUpperCase()), MandateTerms.DEFAULT_ZONE));
    }

    @Test
    void aSubscriptionsDatesAreDatesInTheZoneItNames() {
        Read<SubscriptionTerms> read = subscription("{\"interval\":\"monthly\",\"time_zone\":\"Europe/London\"}",
                "9900");

        assertThat(read.fields()).isEmpty();
        assertThat(read.terms().timeZone()).isEqualTo(ZoneId.of("Europe/London"));
    }
}
