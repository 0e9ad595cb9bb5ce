package io.tender.payment;

import io.tender.checkout.Checkout;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.processor.PaymentProcessors;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A payment request's new {@code expires_at} moves its session's (decisions §7) while other writers may hold an older
 * copy of the session: the recovery job that picked it as expired, or an attempt that read it before its processor
 * call. Neither may undo the new expiry.
 */
class SessionRescheduleIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;
    @Autowired
    private PaymentRecovery recovery;
    @Autowired
    private PaymentSettlement settlement;
    @Autowired
    private PaymentSessions sessions;
    @Autowired
    private Payments payments;
    @Autowired
    private CollectSessions collectSessions;
    @Autowired
    private PaymentProcessors processors;
    @Autowired
    private TransactionTemplate tx;

    private Collect collect;

    @BeforeEach
    void merchant() {
        collect = new Collect(merchants.create().test(), checkout);
    }

    @Test
    void aSessionMovedLaterAfterTheExpiryJobPickedItIsNeitherExpiredNorItsWaitingAttemptCancelled() {
        JsonNode session = collect.session(500);
        Checkout.Attempt threeDs = collect.payByCard(session, "4000000000003220");
        String id = session.get("id").stringValue();
        jdbc.sql("update payment_sessions set expires_at = now() - interval '1 second' where id = ?").param(id).update();
        PaymentSession pickedByTheJob = sessions.findById(id, false).orElseThrow();
        Instant later = Timestamps.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MILLIS);

        reschedule(pickedByTheJob, later);
        recovery.expire(pickedByTheJob);

        JsonNode after = collect.refreshed(session);
        assertThat(after.get("status").stringValue()).isEqualTo("active");
        assertThat(after.get("expires_at").stringValue()).isEqualTo(Timestamps.format(later));
        assertThat(collect.payment(threeDs).get("status").stringValue()).isEqualTo("pending");
    }

    @Test
    void aWriterThatReadTheSessionBeforeANewExpiryDoesNotWriteTheOldOneBack() {
        JsonNode session = collect.session(600);
        Checkout.Attempt threeDs = collect.payByCard(session, "4000000000003220");
        String id = session.get("id").stringValue();
        PaymentSession readBeforeTheCall = sessions.findById(id, false).orElseThrow();
        Instant later = Timestamps.now().plus(Duration.ofDays(3)).truncatedTo(ChronoUnit.MILLIS);

        reschedule(readBeforeTheCall, later);
        Payment payment = payments.find(threeDs.paymentId()).orElseThrow();
        settlement.new Run(owner(readBeforeTheCall), payment, readBeforeTheCall, processors.forMode(payment.mode()), null)
                .save(null);

        JsonNode after = collect.refreshed(session);
        assertThat(after.get("expires_at").stringValue()).isEqualTo(Timestamps.format(later));
        assertThat(after.get("version").intValue()).isGreaterThan(session.get("version").intValue() + 1);
    }

    private void reschedule(PaymentSession session, Instant expiresAt) {
        tx.executeWithoutResult(s -> collectSessions.reschedule(owner(session), session.id(), expiresAt));
    }

    private static Caller owner(PaymentSession session) {
        return Caller.system(session.merchantId(), session.mode());
    }
}
