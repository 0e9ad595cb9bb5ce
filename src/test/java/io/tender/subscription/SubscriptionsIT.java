package io.tender.subscription;

import io.tender.payment.PaymentEventsIT;
import io.tender.payment.Collect;
import io.tender.processor.sandbox.SandboxProcessor;
import io.tender.support.Api;
import io.tender.support.Merchants;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Subscriptions over real HTTP (decisions §8), mostly on test clocks: each period charged once on its date in the
 * subscription's zone (the 31st becoming the last day of shorter months), its notice first; soft declines retried 1, 3
 * and 5 days after the first, hard ones not, then {@code unpaid} or {@code cancelled}; resume, cancel, count; the
 * events; and the scheduler charging a period that falls due in real time.
 */
class SubscriptionsIT extends SeriesIntegrationTest {

    private JsonNode advance(JsonNode subscription, LocalDate to) {
        return Collect.expect(200, api.post("/collect/test_helpers/subscriptions/" + subscription.get("id").stringValue()
                + "/advance", "{\"to\":\"" + to + "\"}").send());
    }

    private static List<JsonNode> payments(JsonNode advanced) {
        List<JsonNode> payments = new ArrayList<>();
        advanced.get("payments").forEach(payments::add);
        return payments;
    }

    private static List<String> chargeDates(JsonNode advanced) {
        return payments(advanced).stream().map(p -> p.get("created_at").stringValue()).toList();
    }

    @Test
    void theFirstPaymentsSuccessStartsTheSubscriptionWithItsMandateAndFirstPeriod() {
        JsonNode subscription = series.subscription(customer, 9900, "\"interval\":\"monthly\"", "4242424242424242");

        LocalDate firstCharge = today().plusMonths(1);
        assertThat(subscription.get("status").stringValue()).isEqualTo("active");
        assertThat(subscription.get("customer_id").stringValue()).isEqualTo(customer);
        assertThat(subscription.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(subscription.get("options").toString()).isEqualTo("{\"interval\":\"monthly\",\"interval_count\":1,"
                + "\"amount\":9900,\"notice_days\":2,\"on_final_failure\":\"unpaid\",\"time_zone\":\"Africa/Johannesburg\"}");
        assertThat(subscription.get("current_period").toString())
                .isEqualTo("{\"start\":\"" + today() + "\",\"end\":\"" + firstCharge + "\"}");
        assertThat(subscription.get("next_charge_at").stringValue())
                .isEqualTo(io.tender.api.Timestamps.format(firstCharge.atStartOfDay(JOHANNESBURG).toInstant()));
        assertThat(subscription.get("latest_payment_id").stringValue())
                .isEqualTo(subscription.get("first_payment_id").stringValue());
        JsonNode mandate = series.collect.get("/collect/mandates/" + subscription.get("mandate_id").stringValue());
        assertThat(mandate.get("type").stringValue()).isEqualTo("scheduled");
        assertThat(mandate.get("subscription_id").stringValue()).isEqualTo(subscription.get("id").stringValue());
        assertThat(mandate.get("next_execution_date").stringValue()).isEqualTo(firstCharge.toString());
        assertThat(mandate.get("options").get("interval").stringValue()).isEqualTo("monthly");
        assertThat(PaymentEventsIT.types(jdbc, subscription.get("id").stringValue()))
                .containsExactly("subscription.created");
        assertThat(series.collect.get("/collect/payments/" + subscription.get("first_payment_id").stringValue())
                .get("mandate_id").stringValue()).isEqualTo(mandate.get("id").stringValue());
    }

    @Test
    void aMonthlySubscriptionOnThe31stIsChargedOnTheLastDayOfShorterMonthsAndOnThe31stAgain() {
        // The next 31st followed by a shorter month (31 Jan, 31 Mar, 31 May, 31 Aug, 31 Oct).
        LocalDate start = today().plusDays(1);
        while (start.getDayOfMonth() != 31 || YearMonth.from(start.plusMonths(1)).lengthOfMonth() == 31) {
            start = start.plusDays(1);
        }
        JsonNode subscription = series.subscription(customer, 9900, "\"interval\":\"monthly\",\"start_date\":\""
                + start + "\",\"notice_days\":0", "4242424242424242");

        JsonNode advanced = advance(subscription, start.plusMonths(2).withDayOfMonth(start.plusMonths(2).lengthOfMonth()));

        List<String> mandateDates = jdbc.sql("select charge_date::text from payments where subscription_id = ?"
                + " order by charge_date").param(subscription.get("id").stringValue()).query(String.class).list();
        LocalDate shorter = YearMonth.from(start.plusMonths(1)).atEndOfMonth();
        assertThat(mandateDates).containsExactly(start.toString(), shorter.toString(), start.plusMonths(2).toString());
        assertThat(payments(advanced)).extracting(p -> p.get("status").stringValue())
                .containsExactly("succeeded", "succeeded", "succeeded");
        assertThat(advanced.get("current_period").get("start").stringValue()).isEqualTo(start.plusMonths(2).toString());
        assertThat(advanced.get("current_period").get("end").stringValue()).isEqualTo(start.plusMonths(3).toString());
        assertThat(advanced.get("test_clock").stringValue())
                .isEqualTo(start.plusMonths(2).withDayOfMonth(start.plusMonths(2).lengthOfMonth()).toString());
    }

    @Test
    void theTestClockSendsEachNoticeBeforeItsChargeAndChargesEachPeriodOnce() {
        JsonNode subscription = series.subscription(customer, 4900, "\"interval\":\"weekly\",\"notice_days\":3",
                "4242424242424242");
        String id = subscription.get("id").stringValue();
        String mandateId = subscription.get("mandate_id").stringValue();
        LocalDate to = today().plusWeeks(2);

        JsonNode advanced = advance(subscription, to);
        JsonNode again = advance(subscription, to);

        assertThat(payments(advanced)).hasSize(2).allSatisfy(p -> {
            assertThat(p.get("status").stringValue()).isEqualTo("succeeded");
            assertThat(p.get("amount").longValue()).isEqualTo(4900);
            assertThat(p.get("subscription_id").stringValue()).isEqualTo(id);
        });
        assertThat(payments(again)).as("advancing to the same date again").isEmpty();
        // Each notice names its date and amount, and comes before its charge.
        var mandateEvents = PaymentEventsIT.events(jdbc, mandateId);
        List<JsonNode> notices = mandateEvents.stream()
                .filter(e -> e.get("type").stringValue().equals("mandate.payment_upcoming")).toList();
        assertThat(notices).extracting(n -> n.get("data").get("date").stringValue())
                .containsExactly(today().plusWeeks(1).toString(), today().plusWeeks(2).toString());
        assertThat(notices.getFirst().get("data").get("amount").longValue()).isEqualTo(4900);
        assertThat(notices.getFirst().get("data").get("subscription_id").stringValue()).isEqualTo(id);
        List<String> order = new ArrayList<>();
        jdbc.sql("select type, aggregateid from outbox where aggregateid in (?, ?) or aggregateid in "
                        + "(select id from payments where subscription_id = ?) order by created_at, id")
                .params(mandateId, id, id).query((rs, i) -> rs.getString("type")).list().forEach(order::add);
        assertThat(order.stream().filter(t -> t.equals("mandate.payment_upcoming") || t.equals("payment.succeeded")))
                .containsExactly("mandate.payment_upcoming", "payment.succeeded", "mandate.payment_upcoming",
                        "payment.succeeded");
        assertThat(jdbc.sql("select count(*) from sandbox_processor_operations where operation_key like ?")
                .param(id + ":%").query(Long.class).single()).as("processor calls").isEqualTo(2);

        assertProblem(api.post("/collect/test_helpers/subscriptions/" + id + "/advance",
                "{\"to\":\"" + to.minusDays(1) + "\"}").send(), 409, "invalid_state_transition");
        assertBadRequest(api.post("/collect/test_helpers/subscriptions/" + id + "/advance",
                "{\"to\":\"" + to.plusDays(367) + "\"}").send(), "to");
        assertBadRequest(api.post("/collect/test_helpers/subscriptions/" + id + "/advance",
                "{\"to\":\"next week\"}").send(), "to");
        assertBadRequest(api.post("/collect/test_helpers/subscriptions/" + id + "/advance", "{}").send(), "to");
        assertProblem(merchant.live().post("/collect/test_helpers/subscriptions/" + id + "/advance",
                "{\"to\":\"" + to + "\"}").send(), 404, "resource_not_found");
    }

    @Test
    void aSoftDeclineIsRetried1And3And5DaysAfterTheFirstThenTheSubscriptionIsUnpaidUntilResumed() {
        JsonNode subscription = series.subscription(customer, 9900, "\"interval\":\"monthly\",\"notice_days\":0",
                SandboxProcessor.LATER_INSUFFICIENT_FUNDS);
        String id = subscription.get("id").stringValue();
        LocalDate due = today().plusMonths(1);

        JsonNode afterFirst = advance(subscription, due);
        assertThat(afterFirst.get("status").stringValue()).isEqualTo("past_due");
        JsonNode firstDecline = payments(afterFirst).getFirst();
        assertThat(firstDecline.get("status").stringValue()).isEqualTo("failed");
        assertThat(firstDecline.get("will_retry").booleanValue()).isTrue();
        assertThat(firstDecline.get("next_retry_at").stringValue()).isEqualTo(startOf(due.plusDays(1)));
        assertThat(afterFirst.get("next_charge_at").stringValue()).isEqualTo(startOf(due.plusDays(1)));

        JsonNode afterRetries = advance(subscription, due.plusDays(10));
        List<JsonNode> retries = payments(afterRetries);
        assertThat(retries).extracting(p -> p.get("will_retry").booleanValue()).containsExactly(true, true, false);
        assertThat(retries.get(0).get("next_retry_at").stringValue()).isEqualTo(startOf(due.plusDays(3)));
        assertThat(retries.get(1).get("next_retry_at").stringValue()).isEqualTo(startOf(due.plusDays(5)));
        assertThat(retries.get(2).has("next_retry_at")).isFalse();
        assertThat(afterRetries.get("status").stringValue()).isEqualTo("unpaid");
        assertThat(afterRetries.has("next_charge_at")).isFalse();
        List<String> attemptDates = jdbc.sql("select (created_at at time zone 'Africa/Johannesburg')::date::text from"
                        + " payments where subscription_id = ? order by period_attempt")
                .param(id).query(String.class).list();
        assertThat(attemptDates).as("four attempts in real time; their keys tell period and attempt").hasSize(4);
        assertThat(jdbc.sql("select operations->0->>'processor_key' from payments where subscription_id = ?"
                + " order by period_attempt").param(id).query(String.class).list())
                .containsExactly(id + ":1:charge", id + ":1:charge:2", id + ":1:charge:3", id + ":1:charge:4");
        // payment.failed says whether it will be tried again.
        JsonNode failedEvent = PaymentEventsIT.events(jdbc, firstDecline.get("id").stringValue()).getLast();
        assertThat(failedEvent.get("type").stringValue()).isEqualTo("payment.failed");
        assertThat(failedEvent.get("data").get("will_retry").booleanValue()).isTrue();
        assertThat(PaymentEventsIT.types(jdbc, id))
                .containsExactly("subscription.created", "subscription.updated", "subscription.updated");
        // Nothing more is charged while it is unpaid.
        assertThat(payments(advance(subscription, due.plusMonths(2)))).isEmpty();

        // Resumed, the unpaid period is charged at once: still declined, it is unpaid again, with no retry.
        JsonNode declinedAgain = Collect.expect(200, api.post("/collect/subscriptions/" + id + "/resume", null).send());
        assertThat(declinedAgain.get("status").stringValue()).isEqualTo("unpaid");
        assertThat(count("select count(*) from payments where subscription_id = ?", id)).isEqualTo(5);

        // The customer's card has money again: the next resume pays the period and the subscription goes on.
        jdbc.sql("update sandbox_processor_methods set behaviour = 'approve' where token = (select outcome->>"
                + "'method_token' from sandbox_processor_operations where operation_key = ?)")
                .param(subscription.get("first_payment_id").stringValue() + ":authorize").update();
        JsonNode resumed = Collect.expect(200, api.post("/collect/subscriptions/" + id + "/resume", null)
                .idempotencyKey("resume-" + id).send());
        assertThat(resumed.get("status").stringValue()).isEqualTo("active");
        assertThat(resumed.get("latest_payment_id").stringValue()).isNotEqualTo(subscription.get("first_payment_id")
                .stringValue());
        assertThat(resumed.get("current_period").get("start").stringValue()).isEqualTo(due.toString());
        // Dates missed while it was unpaid are not charged: the next is the first one after the clock's date.
        LocalDate clock = LocalDate.parse(resumed.get("test_clock").stringValue());
        LocalDate next = LocalDate.parse(resumed.get("current_period").get("end").stringValue());
        assertThat(next).isAfter(clock).isBeforeOrEqualTo(clock.plusMonths(1));
        var replay = api.post("/collect/subscriptions/" + id + "/resume", null).idempotencyKey("resume-" + id).send();
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertProblem(api.post("/collect/subscriptions/" + id + "/resume", null).send(), 409,
                "invalid_state_transition");
        assertThat(count("select count(*) from payments where subscription_id = ? and status = 'succeeded'", id))
                .isEqualTo(1);
    }

    private long count(String sql, String id) {
        return jdbc.sql(sql).param(id).query(Long.class).single();
    }

    private static String startOf(LocalDate date) {
        return io.tender.api.Timestamps.format(date.atStartOfDay(JOHANNESBURG).toInstant());
    }

    @Test
    void theReadmesTourThreeMonthsOnTheTestClockTheFirstChargeDeclinedAndPaidByItsRetry() {
        JsonNode subscription = series.subscription(customer, 9900, "\"interval\":\"monthly\"",
                SandboxProcessor.LATER_DECLINED_ONCE);
        LocalDate first = today().plusMonths(1);

        JsonNode advanced = advance(subscription, today().plusMonths(3));

        assertThat(payments(advanced)).extracting(p -> p.get("status").stringValue())
                .containsExactly("failed", "succeeded", "succeeded", "succeeded");
        JsonNode declined = payments(advanced).getFirst();
        assertThat(declined.get("last_payment_error").get("decline_code").stringValue()).isEqualTo("insufficient_funds");
        assertThat(declined.get("will_retry").booleanValue()).isTrue();
        assertThat(declined.get("next_retry_at").stringValue()).isEqualTo(startOf(first.plusDays(1)));
        assertThat(advanced.get("status").stringValue()).isEqualTo("active");
        assertThat(jdbc.sql("select charge_date::text from payments where subscription_id = ? and status = 'succeeded'"
                        + " order by charge_date").param(subscription.get("id").stringValue()).query(String.class).list())
                .containsExactly(first.toString(), today().plusMonths(2).toString(), today().plusMonths(3).toString());
        assertThat(PaymentEventsIT.types(jdbc, subscription.get("mandate_id").stringValue()).stream()
                .filter(t -> t.equals("mandate.payment_upcoming"))).hasSize(3);
        assertThat(PaymentEventsIT.types(jdbc, subscription.get("id").stringValue()))
                .containsExactly("subscription.created", "subscription.updated", "subscription.updated");
    }

    @Test
    void aHardDeclineIsNotRetriedAndCancelsTheSubscriptionAndItsMandateWhenSoConfigured() {
        JsonNode subscription = series.subscription(customer, 9900, "\"interval\":\"monthly\",\"notice_days\":0,"
                + "\"on_final_failure\":\"cancelled\"", SandboxProcessor.LATER_DECLINED);

        JsonNode advanced = advance(subscription, today().plusMonths(3));

        assertThat(payments(advanced)).hasSize(1);
        assertThat(payments(advanced).getFirst().get("will_retry").booleanValue()).isFalse();
        assertThat(advanced.get("status").stringValue()).isEqualTo("cancelled");
        JsonNode mandate = series.collect.get("/collect/mandates/" + subscription.get("mandate_id").stringValue());
        assertThat(mandate.get("status").stringValue()).isEqualTo("cancelled");
        assertThat(PaymentEventsIT.types(jdbc, subscription.get("id").stringValue()))
                .containsExactly("subscription.created", "subscription.cancelled");
    }

    @Test
    void aCardThatNeedsTheCustomerIsAHardDecline() {
        JsonNode first = series.firstSession(customer, 9900, "\"subscription_options\":{\"interval\":\"monthly\","
                + "\"notice_days\":0}");
        series.collect.payByCard(first, SandboxProcessor.THREE_D_SECURE);
        checkout.decideSandbox(first.get("checkout_session_id").stringValue(), SandboxProcessor.Decision.APPROVE);
        JsonNode subscription = series.collect.get("/collect/subscriptions/"
                + series.collect.refreshed(first).get("subscription_id").stringValue());

        JsonNode advanced = advance(subscription, today().plusMonths(2));

        assertThat(payments(advanced)).hasSize(1);
        assertThat(payments(advanced).getFirst().get("last_payment_error").get("error_code").stringValue())
                .isEqualTo("authentication_required");
        assertThat(advanced.get("status").stringValue()).isEqualTo("unpaid");
    }

    @Test
    void aCancelledSubscriptionChargesNothingMoreAndCancelsItsMandate() {
        JsonNode subscription = series.subscription(customer, 9900, "\"interval\":\"daily\",\"notice_days\":0",
                "4242424242424242");
        String id = subscription.get("id").stringValue();
        assertThat(payments(advance(subscription, today().plusDays(2)))).hasSize(2);

        JsonNode cancelled = Collect.expect(200, api.post("/collect/subscriptions/" + id + "/cancel", null).send());

        assertThat(cancelled.get("status").stringValue()).isEqualTo("cancelled");
        assertThat(cancelled.has("next_charge_at")).isFalse();
        assertThat(payments(advance(subscription, today().plusDays(9)))).isEmpty();
        assertThat(series.collect.get("/collect/mandates/" + subscription.get("mandate_id").stringValue())
                .get("status").stringValue()).isEqualTo("cancelled");
        assertProblem(api.post("/collect/subscriptions/" + id + "/cancel", null).send(), 409, "invalid_state_transition");
        assertProblem(api.post("/collect/subscriptions/" + id + "/resume", null).send(), 409, "invalid_state_transition");
        assertThat(PaymentEventsIT.types(jdbc, id)).containsExactly("subscription.created", "subscription.cancelled");
    }

    @Test
    void cancellingTheMandateCancelsItsSubscription() {
        JsonNode subscription = series.subscription(customer, 9900, "\"interval\":\"weekly\"", "4242424242424242");

        Collect.expect(200, api.post("/collect/mandates/" + subscription.get("mandate_id").stringValue() + "/cancel",
                null).send());

        assertThat(series.collect.get("/collect/subscriptions/" + subscription.get("id").stringValue()).get("status")
                .stringValue()).isEqualTo("cancelled");
        assertThat(payments(advance(subscription, today().plusWeeks(3)))).isEmpty();
    }

    @Test
    void aSubscriptionWithACountCompletesAfterItsLastChargeAndSoDoesItsMandate() {
        JsonNode subscription = series.subscription(customer, 500, "\"interval\":\"daily\",\"count\":2,"
                + "\"notice_days\":0", "4242424242424242");

        JsonNode advanced = advance(subscription, today().plusDays(5));

        assertThat(payments(advanced)).hasSize(2);
        assertThat(advanced.get("status").stringValue()).isEqualTo("completed");
        assertThat(series.collect.get("/collect/mandates/" + subscription.get("mandate_id").stringValue())
                .get("status").stringValue()).isEqualTo("completed");
        assertThat(PaymentEventsIT.types(jdbc, subscription.get("mandate_id").stringValue()))
                .containsExactly("mandate.created", "mandate.completed");
    }

    @Test
    void theSchedulerChargesAPeriodThatFallsDueInRealTime() {
        JsonNode subscription = series.subscription(customer, 1500, "\"interval\":\"monthly\",\"start_date\":\""
                + today() + "\",\"notice_days\":0", "4242424242424242");
        String id = subscription.get("id").stringValue();

        await().atMost(Duration.ofSeconds(30)).until(() -> count(
                "select count(*) from payments where subscription_id = ? and status = 'succeeded'", id) == 1);

        JsonNode charged = series.collect.get("/collect/subscriptions/" + id);
        assertThat(charged.get("current_period").get("start").stringValue()).isEqualTo(today().toString());
        assertThat(charged.get("current_period").get("end").stringValue()).isEqualTo(today().plusMonths(1).toString());
        assertThat(charged.has("test_clock")).isFalse();
    }

    @Test
    void subscriptionsAreListedByCustomerAndStatusForTheirMerchantAndModeOnly() {
        JsonNode active = series.subscription(customer, 9900, "\"interval\":\"monthly\"", "4242424242424242");
        JsonNode cancelled = series.subscription(customer, 9900, "\"interval\":\"monthly\"", "4242424242424242");
        Collect.expect(200, api.post("/collect/subscriptions/" + cancelled.get("id").stringValue() + "/cancel", null)
                .send());

        assertThat(series.collect.get("/collect/subscriptions?customer=" + customer).get("data"))
                .extracting(s -> s.get("id").stringValue())
                .containsExactly(cancelled.get("id").stringValue(), active.get("id").stringValue());
        assertThat(series.collect.get("/collect/subscriptions?status=active").get("data"))
                .extracting(s -> s.get("id").stringValue()).containsExactly(active.get("id").stringValue());
        assertBadRequest(api.get("/collect/subscriptions?status=trialing").send(), "status");
        for (Api stranger : List.of(merchants.create().test(), merchant.live())) {
            assertProblem(stranger.get("/collect/subscriptions/" + active.get("id").stringValue()).send(), 404,
                    "resource_not_found");
            assertProblem(stranger.post("/collect/subscriptions/" + active.get("id").stringValue() + "/cancel", null)
                    .send(), 404, "resource_not_found");
            assertThat(Collect.expect(200, stranger.get("/collect/subscriptions").send()).get("data")).isEmpty();
        }
    }
}
