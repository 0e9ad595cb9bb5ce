package io.tender.payment;

import io.tender.settlement.RecoveryBatches;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The payments' janitor, on the settlement kernel's batches: every {@code interval} it finishes payments with a
 * processor call left pending (a crash, an unknown answer) untouched for {@code min-age}, releases manual
 * authorizations past {@code authorization_expires_at}, and ends sessions past {@code expires_at}. Safe with several
 * instances on one database ({@code SKIP LOCKED}, leases, conditional writes).
 */
@Component
class PaymentRecovery implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(PaymentRecovery.class);

    private final Payments payments;
    private final PaymentSessions sessions;
    private final PaymentService service;
    private final TransactionTemplate tx;
    private final Duration minAge;
    private final Duration lease;
    private final Duration interval;

    PaymentRecovery(Payments payments, PaymentSessions sessions, PaymentService service, TransactionTemplate tx,
                    PaymentSettings settings) {
        this.payments = payments;
        this.sessions = sessions;
        this.service = service;
        this.tx = tx;
        this.minAge = settings.recovery().minAge();
        this.lease = settings.lease();
        this.interval = settings.recovery().interval();
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(new FixedDelayTask(this::run, interval, interval));
    }

    void run() {
        Instant now = Instant.now();
        RecoveryBatches.drain(() -> claim(now), p -> service.recover(p, now), Payment::id);
        expireSessions(now);
    }

    /** One batch of payments; returns how many it took. */
    int runOnce() {
        Instant now = Instant.now();
        return RecoveryBatches.runOnce(() -> claim(now), p -> service.recover(p, now), Payment::id);
    }

    private List<Payment> claim(Instant now) {
        return payments.claimUnfinished(now.minus(minAge), now, lease, RecoveryBatches.SIZE);
    }

    /** Ends the sessions past their expiry (each in its own transactions; a failure leaves it for the next run). */
    void expireSessions(Instant now) {
        List<PaymentSession> expired = tx.execute(s -> sessions.lockExpired(now, RecoveryBatches.SIZE));
        for (PaymentSession session : expired) {
            try {
                service.expire(session);
            } catch (RuntimeException e) {
                log.error("Expiry of {} failed; it will be tried again", session.id(), e);
            }
        }
    }
}
