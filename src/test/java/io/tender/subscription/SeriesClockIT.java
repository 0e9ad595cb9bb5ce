package io.tender.subscription;

import io.tender.payment.Collect;
import io.tender.checkout.Checkout;
import io.tender.support.Api;
import io.tender.support.IntegrationTestSupport;
import io.tender.support.MovableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;

import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service on a {@link Clock} the test moves, with the scheduler run by the test: a subscription is charged at the
 * start of its date in its own time zone, not a second earlier (Lago #1074, Kill Bill #139: charged on the wrong day
 * because of time zones), its notice first, each period once however often the schedule runs; and a mandate's "today"
 * for a {@code next_in_series} charge is the date in the mandate's zone.
 */
@Import(MovableClock.AsTheServicesClock.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
        "management.server.port=0",
        "tender.bootstrap-keys=",
        "tender.series.scheduler.interval=PT1H",
        // Retries later than the default, so that one falls after a mandate's end date.
        "tender.series.retry-after=P2D,P4D"})
class SeriesClockIT extends IntegrationTestSupport {

    private static final Path DATA_DIR = temporaryDataDirectory("series-clock");

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
    }


    @Autowired
    private MovableClock clock;
    @Autowired
    private Checkout checkout;
    @Autowired
    private SubscriptionScheduler scheduler;

    private Api api;
    private Series series;
    private String customer;

    @BeforeEach
    void merchant() {
        clock.set(Instant.now());
        api = merchants.create().test();
        series = new Series(api, checkout);
        customer = series.customer();
    }

    private long payments(String subscriptionId) {
        return jdbc.sql("select count(*) from payments where subscription_id = ?").param(subscriptionId)
                .query(Long.class).single();
    }

    @Test
    void aSubscriptionIsChargedAtTheStartOfItsDateInItsOwnZoneAndNotASecondEarlier() {
        ZoneId losAngeles = ZoneId.of("America/Los_Angeles");
        LocalDate start = LocalDate.now(losAngeles).plusDays(10);
        JsonNode subscription = series.subscription(customer, 2500, "\"interval\":\"monthly\",\"start_date\":\""
                + start + "\",\"time_zone\":\"America/Los_Angeles\",\"notice_days\":1", "4242424242424242");
        String id = subscription.get("id").stringValue();
        Instant due = start.atStartOfDay(losAngeles).toInstant();
        Instant notice = start.minusDays(1).atStartOfDay(losAngeles).toInstant();
        assertThat(subscription.get("next_charge_at").stringValue()).isEqualTo(io.tender.api.Timestamps.format(due));

        // The day before in Johannesburg, UTC and Los Angeles alike: nothing is due, not even the notice.
        clock.set(notice.minusSeconds(1));
        scheduler.run();
        assertThat(events(subscription, "mandate.payment_upcoming")).isZero();

        clock.set(notice);
        scheduler.run();
        assertThat(events(subscription, "mandate.payment_upcoming")).isOne();
        assertThat(payments(id)).isZero();

        // In UTC it is already the charge date at 00:00Z; in Los Angeles it is not until 08:00Z (or 07:00Z).
        clock.set(due.minus(Duration.ofSeconds(1)));
        scheduler.run();
        scheduler.run();
        assertThat(payments(id)).as("a second before the date begins in Los Angeles").isZero();

        clock.set(due);
        scheduler.run();
        scheduler.run();
        assertThat(payments(id)).isOne();
        JsonNode charged = series.collect.get("/collect/subscriptions/" + id);
        assertThat(charged.get("current_period").get("start").stringValue()).isEqualTo(start.toString());
        assertThat(charged.get("next_charge_at").stringValue())
                .isEqualTo(io.tender.api.Timestamps.format(start.plusMonths(1).atStartOfDay(losAngeles).toInstant()));

        // A month on, and runs of the schedule in between, charge it once more.
        clock.set(start.plusMonths(1).atStartOfDay(losAngeles).toInstant().plusSeconds(3600));
        scheduler.run();
        scheduler.run();
        assertThat(payments(id)).isEqualTo(2);
        assertThat(events(subscription, "mandate.payment_upcoming")).isEqualTo(2);
    }

    @Test
    void theLastPeriodsRetryIsStillMadeAfterTheMandatesEndDate() {
        // One charge, on a card declined the first time; its mandate ends the day after it, its retry comes two days
        // after: the schedule running in between must not end the mandate and drop the retry.
        ZoneId johannesburg = ZoneId.of("Africa/Johannesburg");
        LocalDate start = LocalDate.now(johannesburg).plusDays(3);
        JsonNode subscription = series.subscription(customer, 2500, "\"interval\":\"monthly\",\"count\":1,"
                + "\"start_date\":\"" + start + "\",\"notice_days\":0", "4000000000000267");
        String id = subscription.get("id").stringValue();

        clock.set(start.atStartOfDay(johannesburg).toInstant());
        scheduler.run();
        assertThat(series.collect.get("/collect/subscriptions/" + id).get("status").stringValue()).isEqualTo("past_due");

        clock.set(start.plusDays(1).atStartOfDay(johannesburg).toInstant().plusSeconds(3600));
        scheduler.run();
        assertThat(series.collect.get("/collect/mandates/" + subscription.get("mandate_id").stringValue())
                .get("status").stringValue()).as("the mandate past its end, its last period waiting").isEqualTo("active");

        clock.set(start.plusDays(2).atStartOfDay(johannesburg).toInstant());
        scheduler.run();
        JsonNode after = series.collect.get("/collect/subscriptions/" + id);
        assertThat(after.get("status").stringValue()).isEqualTo("completed");
        assertThat(payments(id)).isEqualTo(2);
        assertThat(series.collect.get("/collect/mandates/" + subscription.get("mandate_id").stringValue())
                .get("status").stringValue()).isEqualTo("completed");
    }

    private long events(JsonNode subscription, String type) {
        return jdbc.sql("select count(*) from outbox where aggregateid = ? and type = ?")
                .params(subscription.get("mandate_id").stringValue(), type).query(Long.class).single();
    }

    @Test
    void aChargeOfAScheduledMandateIsAllowedOnItsDateInTheMandatesZone() {
        // Charged on the 15th in Auckland: on the 14th at 11:00 UTC it is already the 15th there.
        ZoneId auckland = ZoneId.of("Pacific/Auckland");
        LocalDate fifteenth = LocalDate.now(auckland).withDayOfMonth(15).plusMonths(1);
        JsonNode mandate = series.mandate(customer, 4000, "\"mandate_options\":{\"type\":\"scheduled\",\"amount\":"
                + "{\"type\":\"fixed\",\"value\":4000},\"day_of_month\":15,\"start_date\":\""
                + LocalDate.now(auckland) + "\",\"time_zone\":\"Pacific/Auckland\"}", "4242424242424242");
        Instant begins = fifteenth.atStartOfDay(auckland).toInstant();
        String charge = "{\"type\":\"next_in_series\",\"customer_id\":\"" + customer + "\",\"mandate_id\":\""
                + mandate.get("id").stringValue() + "\",\"amount\":4000,\"currency\":\"ZAR\"}";

        clock.set(begins.minusSeconds(1));
        JsonNode refused = assertProblem(api.post("/collect/payment_sessions", charge).send(), 422,
                "operation_not_allowed");
        assertThat(refused.get("detail").stringValue()).startsWith("Not an execution date:")
                .contains("the next is " + fifteenth);

        clock.set(begins);
        JsonNode charged = Collect.expect(201, api.post("/collect/payment_sessions", charge).send());
        assertThat(charged.get("payment_outcome").stringValue()).isEqualTo("paid");
        assertThat(jdbc.sql("select charge_date::text from payments where id = ?")
                .param(charged.get("payment_id").stringValue()).query(String.class).single())
                .isEqualTo(fifteenth.toString());
    }
}
