package io.tender.subscription;

import io.tender.payment.Collect;
import io.tender.settlement.Janitor;
import io.tender.settlement.Recoverable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What happens to a subscription's charge that an instance claimed and then died before sending (its payment pending,
 * its period {@code charging}): the recovery job asks the processor, and sends it again under a fresh key only while
 * the subscription still wants it; once the merchant has cancelled, it ends as never received and nothing is charged.
 * And a period that cannot be charged (its mode has no processor) never stops the schedule for everybody else.
 */
class SeriesRecoveryIT extends SeriesIntegrationTest {

    @Autowired
    private SubscriptionCharges charges;
    @Autowired
    private SubscriptionScheduler scheduler;
    @Autowired
    private TransactionTemplate tx;
    @Autowired
    private List<Recoverable<?>> recoverables;
    @Autowired
    private Janitor janitor;

    /** A subscription whose first charge is claimed (recorded pending) by an instance that then dies. */
    private String claimedAndAbandoned(long amount) {
        JsonNode subscription = series.subscription(customer, amount, "\"interval\":\"monthly\",\"start_date\":\""
                + today().plusDays(10) + "\",\"notice_days\":0", "4242424242424242");
        String id = subscription.get("id").stringValue();
        Instant due = today().plusDays(10).atStartOfDay(JOHANNESBURG).toInstant();
        // The claim commits (as SubscriptionCharges.chargeDue's first transaction does); nothing is sent.
        tx.executeWithoutResult(s -> ReflectionTestUtils.invokeMethod(charges, "claim", due, id, 1));
        assertThat(rows(id)).extracting(r -> r.get("status")).containsExactly("pending");
        // The lease of the dead instance runs out.
        jdbc.sql("update payments set lease_until = null, updated_at = now() - interval '1 hour' where subscription_id = ?")
                .param(id).update();
        return id;
    }

    private List<Map<String, Object>> rows(String subscriptionId) {
        return jdbc.sql("select id, status from payments where subscription_id = ?").param(subscriptionId).query()
                .listOfRows();
    }

    private long approvedCalls(String subscriptionId) {
        return jdbc.sql("select count(*) from sandbox_processor_operations where operation_key like ?"
                + " and outcome->>'result' = 'approved'").param(subscriptionId + ":%").query(Long.class).single();
    }

    @Test
    void aChargeThatNeverReachedTheProcessorIsSentAgainWhileTheSubscriptionGoesOn() {
        String id = claimedAndAbandoned(2100);

        janitor.runOnce(payments());

        assertThat(rows(id)).extracting(r -> r.get("status")).containsExactly("succeeded");
        assertThat(approvedCalls(id)).isOne();
        assertThat(jdbc.sql("select operation_key from sandbox_processor_operations where operation_key like ?"
                + " and outcome->>'result' = 'approved'").param(id + ":%").query(String.class).single())
                .isEqualTo(id + ":1:charge~2");
        assertThat(series.collect.get("/collect/subscriptions/" + id).get("current_period").get("start").stringValue())
                .isEqualTo(today().plusDays(10).toString());
    }

    @Test
    void aChargeThatNeverReachedTheProcessorIsNotSentOnceTheSubscriptionWasCancelled() {
        String id = claimedAndAbandoned(2200);
        Collect.expect(200, api.post("/collect/subscriptions/" + id + "/cancel", null).send());

        janitor.runOnce(payments());

        assertThat(rows(id)).extracting(r -> r.get("status")).containsExactly("failed");
        assertThat(approvedCalls(id)).as("charges approved at the processor").isZero();
        JsonNode payment = series.collect.get("/collect/payments/" + rows(id).getFirst().get("id"));
        assertThat(payment.get("last_payment_error").get("decline_code").stringValue()).isEqualTo("not_received");
        assertThat(payment.get("will_retry").booleanValue()).isFalse();
        assertThat(series.collect.get("/collect/subscriptions/" + id).get("status").stringValue())
                .isEqualTo("cancelled");
    }

    @Test
    void aPeriodThatCannotBeChargedDoesNotStopTheScheduleForTheOthers() {
        // A live subscription whose period is due, on a service with no live processor configured.
        JsonNode stranded = series.subscription(customer, 1600, "\"interval\":\"monthly\"", "4242424242424242");
        String strandedId = stranded.get("id").stringValue();
        jdbc.sql("update subscriptions set mode = 'live' where id = ?").param(strandedId).update();
        jdbc.sql("update mandates set mode = 'live' where id = ?").param(stranded.get("mandate_id").stringValue())
                .update();
        jdbc.sql("update subscription_periods set mode = 'live', due_at = now() - interval '1 day', notice_at = null where"
                + " subscription_id = ?").param(strandedId).update();
        // A test subscription whose period is due, and one whose kept card cannot be opened.
        JsonNode due = series.subscription(customer, 1700, "\"interval\":\"monthly\"", "4242424242424242");
        JsonNode broken = series.subscription(customer, 1800, "\"interval\":\"monthly\"", "4242424242424242");
        jdbc.sql("update payment_methods set processor_token_sealed = '\\x00'::bytea where id = (select"
                + " payment_method_id from mandates where id = ?)").param(broken.get("mandate_id").stringValue()).update();
        for (JsonNode s : List.of(due, broken)) {
            jdbc.sql("update subscription_periods set due_at = now() - interval '1 hour', notice_at = null"
                    + " where subscription_id = ?")
                    .param(s.get("id").stringValue()).update();
        }

        scheduler.run();

        assertThat(rows(due.get("id").stringValue())).extracting(r -> r.get("status")).containsExactly("succeeded");
        assertThat(rows(strandedId)).as("no processor, no charge").isEmpty();
        assertThat(rows(broken.get("id").stringValue())).isEmpty();
        assertThat(jdbc.sql("select due_at > now() from subscription_periods where subscription_id = ?")
                .param(broken.get("id").stringValue()).query(Boolean.class).single())
                .as("the broken period is postponed").isTrue();
    }

    /** Payments' share of the recovery job (the settlement kernel's janitor runs one kind at a time). */
    private Recoverable<?> payments() {
        return recoverables.stream().filter(r -> r.name().equals("payments")).findFirst().orElseThrow();
    }
}
