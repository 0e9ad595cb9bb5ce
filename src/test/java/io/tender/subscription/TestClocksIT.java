package io.tender.subscription;

import io.tender.payment.Collect;
import io.tender.processor.sandbox.SandboxProcessor;
import io.tender.settlement.Janitor;
import io.tender.settlement.Recoverable;
import io.tender.support.Api;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A subscription's test clock never moves past work that is not finished (decisions §8): a charge whose answer is
 * unknown, or a period another transaction holds, keeps the clock at its date, the answer says where and why, and
 * the advances after it charge every period due once, each on its own date, counting the next from it.
 */
class TestClocksIT extends SeriesIntegrationTest {

    @Autowired
    private PlatformTransactionManager transactions;
    @Autowired
    private List<Recoverable<?>> recoverables;
    @Autowired
    private Janitor janitor;

    private Api.Response advance(String id, LocalDate to) {
        return api.post("/collect/test_helpers/subscriptions/" + id + "/advance", "{\"to\":\"" + to + "\"}").send();
    }


    /** The recovery job, as it runs once the pending charges' leases have run out. */
    private void recoveryAsksTheProcessor(String subscriptionId) {
        jdbc.sql("update payments set lease_until = null, updated_at = now() - interval '1 hour'"
                + " where subscription_id = ? and status = 'pending'").param(subscriptionId).update();
        // The sandbox's status query answers again (approval-delay later).
        jdbc.sql("update sandbox_processor_operations set approve_at = now() - interval '1 second'"
                + " where operation_key like ? and approve_at is not null").param(subscriptionId + ":%").update();
        janitor.runOnce(payments());
    }

    @Test
    void aChargeWhoseAnswerIsUnknownKeepsTheClockAtItsDateUntilTheRecoveryJobFinishesIt() {
        LocalDate today = today();
        String id = series.subscription(customer, 9900, "\"interval\":\"monthly\",\"notice_days\":0",
                SandboxProcessor.LATER_ANSWER_LOST).get("id").stringValue();
        LocalDate to = today.plusMonths(3);

        for (int month = 1; month <= 3; month++) {
            JsonNode stopped = Collect.expect(200, advance(id, to));

            assertThat(stopped.get("payments")).hasSize(1);
            JsonNode payment = stopped.get("payments").get(0);
            assertThat(payment.get("status").stringValue()).isEqualTo("pending");
            assertThat(stopped.get("test_clock").stringValue()).as("the clock stays at the charge's date")
                    .isEqualTo(today.plusMonths(month).toString());
            JsonNode stop = stopped.get("advance_stopped");
            assertThat(stop.get("at").stringValue()).isEqualTo(today.plusMonths(month).toString());
            assertThat(stop.get("reason").stringValue()).isEqualTo("payment_pending");
            assertThat(stop.get("payment_id").stringValue()).isEqualTo(payment.get("id").stringValue());
            if (month == 1) {
                // Advancing again before the answer is known moves nothing and charges nothing more.
                JsonNode waiting = Collect.expect(200, advance(id, to));
                assertThat(waiting.get("payments")).isEmpty();
                assertThat(waiting.get("test_clock").stringValue()).isEqualTo(today.plusMonths(1).toString());
                assertThat(waiting.get("advance_stopped").get("payment_id").stringValue())
                        .isEqualTo(payment.get("id").stringValue());
            }

            recoveryAsksTheProcessor(id);
        }
        JsonNode done = Collect.expect(200, advance(id, to));

        assertThat(done.get("payments")).isEmpty();
        assertThat(done.has("advance_stopped")).isFalse();
        assertThat(done.get("test_clock").stringValue()).isEqualTo(to.toString());
        assertThat(Series.periods(jdbc, id)).isEqualTo(Series.paidMonthly(today, 3));
        assertThat(jdbc.sql("select count(*) from sandbox_processor_operations where operation_key like ?")
                .param(id + ":%").query(Long.class).single()).as("one processor call a period").isEqualTo(3);
    }

    @Test
    void aPeriodAnotherTransactionHoldsKeepsTheClockAtItsDateAndIsChargedOnItOnceReleased() throws Exception {
        LocalDate today = today();
        String id = series.subscription(customer, 9900, "\"interval\":\"monthly\",\"notice_days\":0",
                "4242424242424242").get("id").stringValue();
        LocalDate to = today.plusMonths(3);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // Another transaction (as the scheduler's claim would) holds the first period's row.
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() ->
                new TransactionTemplate(transactions).executeWithoutResult(s -> {
                    jdbc.sql("select * from subscription_periods where subscription_id = ? and period = 1 for update")
                            .param(id).query().listOfRows();
                    held.countDown();
                    try {
                        release.await(1, TimeUnit.MINUTES);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
        assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();

        JsonNode stopped;
        try {
            stopped = Collect.expect(200, advance(id, to));
        } finally {
            release.countDown();
            holder.get(1, TimeUnit.MINUTES);
        }

        assertThat(stopped.get("payments")).isEmpty();
        assertThat(stopped.get("test_clock").stringValue()).isEqualTo(today.plusMonths(1).toString());
        assertThat(stopped.get("advance_stopped").get("at").stringValue()).isEqualTo(today.plusMonths(1).toString());
        assertThat(stopped.get("advance_stopped").get("reason").stringValue()).isEqualTo("period_held");
        JsonNode done = Collect.expect(200, advance(id, to));
        assertThat(done.get("payments")).hasSize(3)
                .allSatisfy(p -> assertThat(p.get("status").stringValue()).isEqualTo("succeeded"));
        assertThat(done.get("test_clock").stringValue()).isEqualTo(to.toString());
        assertThat(Series.periods(jdbc, id)).isEqualTo(Series.paidMonthly(today, 3));
    }

    /** Payments' share of the recovery job (the settlement kernel's janitor runs one kind at a time). */
    private Recoverable<?> payments() {
        return recoverables.stream().filter(r -> r.name().equals("payments")).findFirst().orElseThrow();
    }
}
