package io.tender.payment;

import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.processor.PaymentProcessors;
import io.tender.settlement.Janitor;
import io.tender.settlement.Recoverable;
import io.tender.settlement.Settlement;
import io.tender.settlement.StaleWrite;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The payments' share of the settlement kernel's {@link Janitor}: every {@code interval} it finishes payments whose
 * processor call was left unknown or unsent (a crash, a lost answer) untouched for {@code min-age}, releases manual
 * authorizations past {@code authorization_expires_at}, and then ends sessions past {@code expires_at}.
 */
@Component
record PaymentRecovery(Payments payments, PaymentSessions sessions, PaymentProcessors processors,
                       PaymentSettlement settlement, SettledCalls settled, SessionMoves moves,
                       TransactionTemplate tx, PaymentSettings settings, SavedPaymentMethods savedMethods,
                       ChargeOutcomes series)
        implements Recoverable<Payment> {

    private static final Logger log = LoggerFactory.getLogger(PaymentRecovery.class);

    @Override
    public String name() {
        return "payments";
    }

    @Override
    public Duration interval() {
        return settings.recovery().interval();
    }

    @Override
    public List<Payment> claim(Instant now, int limit) {
        return payments.claimUnfinished(now.minus(settings.recovery().minAge()), now, settlement.lease(), limit);
    }

    @Override
    public String id(Payment payment) {
        return payment.id();
    }

    @Override
    public void afterRun(Instant now) {
        expireSessions(now);
    }

    /**
     * Finishes a payment a crash or a lost answer left unfinished, or releases an expired authorization (the janitor
     * holds its lease). A call that may have been sent is asked after, never sent again; a capture or void that
     * never arrived is sent again under a fresh key, and so is a charge of a kept card without the customer (its
     * card is at hand, sealed, and the merchant or the subscription asked for it) while its mandate is active and its
     * subscription goes on. When the payment is final, every Idempotency-Key waiting on it gets the final answer.
     */
    @Override
    public void recover(Payment payment, Instant now) {
        var processor = processors.find(payment.mode());
        if (processor.isEmpty()) {
            log.warn("Cannot recover {}: no processor for {} mode", payment.id(), payment.mode().wire());
            payments.release(payment);
            return;
        }
        PaymentSession session = payment.paymentSessionId() == null ? null
                : sessions.findById(payment.paymentSessionId(), false).orElse(null);
        var pending = payment.pending();
        // A charge of a kept card that never arrived goes again only while its series still wants it.
        boolean offSessionCharge = pending.isPresent() && pending.get().type() == PaymentOperation.Type.AUTHORIZE
                && payment.offSession() && series.stillWanted(payment.series());
        var run = offSessionCharge
                ? settlement.new Run(Caller.system(payment.merchantId(), payment.mode()), payment, session,
                processor.get(), savedMethods.kept(payment.paymentMethodId()).orElse(null))
                : settlement.runOf(payment, session, processor.get());
        if (pending.isPresent()) {
            boolean mustHappen = pending.get().type() != PaymentOperation.Type.AUTHORIZE
                    || (offSessionCharge && run.method != null);
            boolean resolved = settlement.settle(run, new Settlement.Mode(true, mustHappen,
                    pending.get().type() == PaymentOperation.Type.VOID));
            if (!resolved || (payment.pending().isPresent() && payment.awaitingCustomer().isPresent()
                    && payment.pending().get().type() == PaymentOperation.Type.AUTHORIZE)) {
                run.save(null);
                return;
            }
        } else if (payment.status() == PaymentStatus.SUCCEEDED && payment.remaining() > 0
                && payment.authorizationExpiresAt() != null && !now.isBefore(payment.authorizationExpiresAt())) {
            log.info("Releasing the expired authorization of {}", payment.id());
            payment.beginVoid(Timestamps.now());
            run.save(settlement.lease());
            if (!settlement.settle(run, Settlement.Mode.SEND)) {
                run.save(null);
                return;
            }
        } else {
            payments.release(payment);
            return;
        }
        settled.finish(run);
        log.info("Recovered {}: {}", payment.id(), payment.status().wire());
    }

    /** Ends the sessions past their expiry (each in its own transactions; a failure leaves it for the next run). */
    void expireSessions(Instant now) {
        List<PaymentSession> expired = tx.execute(s -> sessions.lockExpired(now, Janitor.BATCH));
        for (PaymentSession session : expired) {
            try {
                expire(session);
            } catch (RuntimeException e) {
                log.error("Expiry of {} failed; it will be tried again", session.id(), e);
            }
        }
    }

    /**
     * Ends a session past its expiry: an authorization still waiting for the customer is cancelled at the processor
     * first (its payment ends {@code expired}); a session whose attempt's outcome is still unknown waits for the
     * recovery job to resolve it.
     */
    void expire(PaymentSession locked) {
        Optional<PaymentSession> current = sessions.findById(locked.id(), false);
        if (current.isEmpty() || current.get().status() != PaymentSession.Status.ACTIVE || stillOpen(current.get())) {
            return;
        }
        Optional<Payment> latest = moves.latest(current.get());
        if (latest.isPresent() && latest.get().status() == PaymentStatus.PENDING) {
            Payment payment = latest.get();
            if (payment.awaitingCustomer().isEmpty() || payment.pending().get().type() != PaymentOperation.Type.AUTHORIZE) {
                return;
            }
            var run = settlement.runOf(payment, null, processors.forMode(payment.mode()));
            payment.beginVoid(Timestamps.now());
            try {
                run.save(settlement.lease());
            } catch (StaleWrite e) {
                return;
            }
            boolean settled = settlement.settle(run, Settlement.Mode.SEND);
            run.save(null);
            if (!settled) {
                return;
            }
        }
        tx.executeWithoutResult(s -> {
            PaymentSession session = sessions.findById(locked.id(), true).orElseThrow();
            if (session.status() != PaymentSession.Status.ACTIVE || stillOpen(session)) {
                return;
            }
            Caller owner = Caller.system(session.merchantId(), session.mode());
            Optional<Payment> last = moves.latest(session);
            if (last.isPresent() && last.get().status() == PaymentStatus.SUCCEEDED) {
                moves.moved(owner, session, session.attemptEnded(last.get(), Timestamps.now()), last.get());
                return;
            }
            moves.moved(owner, session, session.expire(Timestamps.now()),
                    last.filter(p -> p.status() == PaymentStatus.EXPIRED).orElse(null));
        });
    }

    /** An active session whose expiry has not come (it was moved later after the recovery job picked it). */
    private static boolean stillOpen(PaymentSession session) {
        return session.status() == PaymentSession.Status.ACTIVE && Timestamps.now().isBefore(session.expiresAt());
    }
}
