package io.tender.payment;

import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.outbox.Outbox;
import io.tender.processor.PaymentMethodInput;
import io.tender.processor.PaymentProcessor;
import io.tender.processor.PaymentProcessors;
import io.tender.processor.ProcessorOutcome;
import io.tender.settlement.StaleWrite;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;

/**
 * A customer's attempts at a session (the hosted checkout, a push payment request), in three phases around the
 * processor call: one transaction locks the session, checks it may take an attempt, and records the payment with its
 * authorization pending; the processor is called with no transaction open; {@link SettledCalls#finish} records
 * the answer. An unknown answer is resolved by asking, never by sending again; what stays unknown is left pending
 * for {@link PaymentRecovery}.
 */
@Service
record PaymentAttempts(Payments payments, PaymentSessions sessions, PaymentProcessors processors,
                       PaymentObligations obligations, PaymentMethods methods, PaymentSettlement settlement,
                       SettledCalls settled, SessionMoves moves, TransactionTemplate tx) {

    private static final Logger log = LoggerFactory.getLogger(PaymentAttempts.class);

    /**
     * Starts an attempt at a session with the customer's method: records the payment with its authorization
     * pending, sends it, and records the answer. Returns the payment as it stands afterwards ({@code pending} while an
     * answer is unknown or the customer still has to act). {@code attemptsSeen}: the number of attempts the session
     * had when the customer's form was issued, checked under the session's lock so that one form starts at most one
     * attempt however often it is posted; null where no form is involved (a push).
     */
    Payment start(String sessionId, PaymentMethodInput method, Integer attemptsSeen) {
        return start(sessionId, method, attemptsSeen, CheckoutSessions.Payer.UNKNOWN);
    }

    /**
     * {@link #start(String, PaymentMethodInput, Integer)} by a customer on the checkout: for a {@code first_in_series}
     * session their acceptance of its terms is recorded with the attempt ({@code client}'s address and browser).
     */
    Payment start(String sessionId, PaymentMethodInput method, Integer attemptsSeen, CheckoutSessions.Payer client) {
        PaymentSettlement.Run run = tx.execute(s -> {
            PaymentSession session = sessions.findById(sessionId, true).orElseThrow();
            if (attemptsSeen != null && attemptsSeen != session.attempts()) {
                throw new PaymentRejection.StaleForm().thrown();
            }
            boolean inFlight = moves.latest(session).filter(p -> p.status() == PaymentStatus.PENDING).isPresent();
            String refusal = session.attemptRefusal(Timestamps.now(), inFlight);
            if (refusal != null) {
                throw new PaymentRejection.AttemptRefused(refusal).thrown();
            }
            Caller owner = Caller.system(session.merchantId(), session.mode());
            if (session.obligationId() != null) {
                obligations.recheck(owner, session.obligationId(), session.amount(), session.currency());
            }
            Instant now = Timestamps.now();
            Payment payment = Payment.attempt(session.merchantId(), session.mode(), session,
                    session.amount() == 0 ? PaymentIntent.PAYMENT_METHOD_VERIFICATION : PaymentIntent.PAYMENT,
                    method instanceof PaymentMethodInput.Card ? session.options().captureMethod()
                            : CaptureMethod.AUTOMATIC,
                    PaymentMethods.details(method), methods.fingerprint(method), now);
            payment.beginAuthorization(now);
            payments.insert(payment, settlement.lease());
            if (session.firstInSeries()) {
                session.accepted(new Acceptance(now, client.address(), client.userAgent()));
            }
            moves.recorded(owner, session, session.attemptStarted(payment.id(), now));
            PaymentProcessor processor = processors.forMode(session.mode());
            return settlement.new Run(owner, payment, session, processor, method);
        });
        settled.settleAndFinish(run);
        return run.payment;
    }

    /**
     * Asks the processor about an authorization waiting for the customer (an app approval arrives by itself; a 3-D
     * Secure or bank page reports back) and records its outcome once there is one. A concurrent writer's newer state
     * wins; the caller reads the payment again.
     */
    void refresh(Payment payment) {
        if (payment.awaitingCustomer().isEmpty()) {
            return;
        }
        PaymentSession session = payment.paymentSessionId() == null ? null
                : sessions.findById(payment.paymentSessionId(), false).orElse(null);
        var run = settlement.runOf(payment, session, processors.forMode(payment.mode()));
        ProcessorOutcome outcome = run.processor.status(payment.pending().orElseThrow().processorKey());
        if (outcome instanceof ProcessorOutcome.ActionRequired || outcome instanceof ProcessorOutcome.Unknown
                || outcome instanceof ProcessorOutcome.Accepted) {
            return;
        }
        settlement.record(run, outcome);
        try {
            settled.finish(run);
        } catch (StaleWrite e) {
            log.debug("{} was moved by another writer meanwhile", payment.id());
        }
    }
}
