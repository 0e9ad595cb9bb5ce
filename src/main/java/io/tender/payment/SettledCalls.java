package io.tender.payment;

import io.tender.api.Timestamps;
import io.tender.settlement.Settlement;
import io.tender.settlement.WaitingKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes what a payment's settled processor call decided, in one transaction, whichever flow sent it (a customer's
 * attempt, the merchant's {@code next_in_series} charge, the recovery job): the payment; the session's move, told to its
 * origin; for a success the card it saved, what a {@code first_in_series} payment starts ({@link FirstInSeries}) and
 * its application to a bill or account ({@link PaymentObligations}); for a charge without the customer its series'
 * decision ({@link ChargeOutcomes}); and every Idempotency-Key still waiting on the payment or its charge's session.
 */
@Component
record SettledCalls(PaymentSettlement settlement, PaymentSessions sessions, SessionMoves moves, PaymentViews views,
                    SavedPaymentMethods savedMethods, FirstInSeries firstInSeries, ChargeOutcomes chargeOutcomes,
                    PaymentObligations obligations, WaitingKeys waitingKeys, TransactionTemplate tx) {

    private static final Logger log = LoggerFactory.getLogger(SettledCalls.class);

    /**
     * Sends the run's pending call and writes where it stands: the settled call through {@link #finish}, or, its
     * outcome unknown (or a call that must happen not arrived), the payment as it is, for the recovery job.
     */
    void settleAndFinish(PaymentSettlement.Run run) {
        if (settlement.settle(run, Settlement.Mode.SEND)) {
            finish(run);
        } else {
            run.save(null);
        }
    }

    /**
     * Writes a settled run: the payment, the session's move, and for a success the obligation's payment, in one
     * transaction. An authorization waiting for the customer is written as it is (pending).
     */
    void finish(PaymentSettlement.Run run) {
        tx.executeWithoutResult(s -> {
            PaymentSettlement.Run locked = run.session == null ? run : withLockedSession(run);
            Payment payment = locked.payment;
            if (payment.offSession() && payment.status().isFinal()) {
                var decided = chargeOutcomes.settled(ended(payment));
                if (decided.retry() != null) {
                    payment.retried(decided.retry());
                }
                locked.events.addAll(decided.events());
            }
            locked.write(null);
            if (locked.session != null && payment.status().isFinal()) {
                moves.tellOrigin(locked.owner, locked.session, payment);
            }
            if (payment.status() == PaymentStatus.SUCCEEDED && payment.obligationId() != null) {
                obligations.applyReceived(locked.owner, payment.id()).ifPresent(reason -> log.error(
                        "Payment {} succeeded but could not be applied to {}: {}. An operator must reconcile it.",
                        payment.id(), payment.obligationId(), reason));
            }
            var answer = views.answer(payment);
            waitingKeys.complete(payment.merchantId(), payment.mode().wire(), payment.id(), waiting -> answer);
            if (locked.session != null && locked.session.nextInSeries() && payment.status().isFinal()) {
                // The key of a charge whose request is gone (a crash, or the recovery job finishing it) replays the
                // session as it ended; a request still running completes its key itself, with the same answer.
                var created = views.created(locked.session);
                waitingKeys.complete(locked.session.merchantId(), locked.session.mode().wire(), locked.session.id(),
                        waiting -> created);
            }
        });
    }

    /** A final charge without the customer, as its series reads it. */
    static ChargeOutcomes.Ended ended(Payment payment) {
        return new ChargeOutcomes.Ended(payment.id(), payment.series(), payment.status() == PaymentStatus.SUCCEEDED,
                declineCode(payment));
    }

    /** What the retry rules read of a decline: its decline code, or its error code without one. */
    private static String declineCode(Payment payment) {
        PaymentError error = payment.lastPaymentError();
        if (error == null) {
            return null;
        }
        return error.declineCode() != null && !error.declineCode().equals("not_received") ? error.declineCode()
                : error.errorCode();
    }

    /**
     * The run with its session read again and locked, inside the final transaction: the session may have changed
     * since the attempt started (a payment request's new expiry), and the move is made on the one in the database.
     * A final payment that is still the session's latest attempt ends it (saving its method, if it should).
     */
    private PaymentSettlement.Run withLockedSession(PaymentSettlement.Run run) {
        PaymentSession session = sessions.findById(run.session.id(), true).orElseThrow();
        PaymentSettlement.Run locked = settlement.new Run(run.owner, run.payment, session, run.processor, null);
        locked.events.addAll(run.events);
        locked.methodToken = run.methodToken;
        if (locked.payment.status().isFinal() && locked.payment.id().equals(session.paymentId())) {
            SavedPaymentMethod saved = saveMethod(locked.payment, session, run.methodToken);
            locked.recordSession(session.attemptEnded(locked.payment, Timestamps.now()));
            if (session.firstInSeries() && locked.payment.status() == PaymentStatus.SUCCEEDED) {
                enrol(locked, saved);
            }
        }
        return locked;
    }

    /**
     * Starts what the run's first payment agreed to, through {@link FirstInSeries}, in the transaction recording its
     * success: the payment becomes its mandate's first charge, and the events come after the payment's and session's.
     */
    private void enrol(PaymentSettlement.Run run, SavedPaymentMethod saved) {
        Payment payment = run.payment;
        PaymentSession session = run.session;
        if (saved == null || run.methodToken == null) {
            // The processor approved without keeping the card: nothing can be charged later, so no mandate is made.
            log.error("First payment {} of session {} succeeded, but the processor kept no card to charge later: no"
                    + " mandate was created. The merchant must ask the customer to pay again.", payment.id(),
                    session.id());
            return;
        }
        var enrolled = firstInSeries.enrol(new FirstInSeries.FirstPayment(payment.id(), payment.merchantId(),
                payment.mode(), session.customerId(), payment.currency(), saved.id(), saved.details(),
                session.options().series(), session.mandateAcceptance(), session.metadata()));
        payment.firstChargeOf(enrolled.mandateId(), enrolled.firstChargeDate());
        session.ofMandate(enrolled.mandateId(), enrolled.subscriptionId());
        run.events.addAll(enrolled.events());
    }

    /**
     * Saves the card of a session's succeeded attempt as a {@code pm_} (decisions §6): always for a verification, and
     * for a payment when the session asked {@code save_payment_method: always}. Runs inside the transaction that
     * records the success, before the payment, the session and their events are written, so that all of them show
     * its id. Once only: a payment that already saved one saves no other. A first_in_series session's card is
     * saved with the token the processor answered for it (sealed), so that it can be charged again.
     */
    private SavedPaymentMethod saveMethod(Payment payment, PaymentSession session, String methodToken) {
        boolean card = payment.paymentMethodDetails() != null
                && "card".equals(payment.paymentMethodDetails().get("type"));
        var checkout = session.options() == null ? null : session.options().checkoutOptions();
        boolean wanted = payment.intent() == PaymentIntent.PAYMENT_METHOD_VERIFICATION
                || (checkout != null && "always".equals(checkout.savePaymentMethod()));
        if (payment.status() != PaymentStatus.SUCCEEDED || !card || !wanted || payment.paymentMethodId() != null) {
            return null;
        }
        SavedPaymentMethod saved = savedMethods.saveFrom(payment, session.customerId(), methodToken,
                Timestamps.now());
        payment.withPaymentMethod(saved.id());
        session.withPaymentMethod(saved.id());
        return saved;
    }
}
