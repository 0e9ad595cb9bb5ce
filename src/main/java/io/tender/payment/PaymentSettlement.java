package io.tender.payment;

import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.outbox.Outbox;
import io.tender.processor.PaymentMethodInput;
import io.tender.processor.PaymentProcessor;
import io.tender.processor.ProcessorOutcome;
import io.tender.settlement.PendingCall;
import io.tender.settlement.Settlement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What every payment flow shares around a processor call, on the settlement kernel that redemptions use: a
 * {@link Run} (a payment, and its session for an attempt, moved by one writer with its events) and the kernel
 * driving the pending call to a definite outcome, never sending it twice. The flows ({@link PaymentAttempts},
 * {@link CapturesAndVoids}, {@link NextInSeriesCharges}, {@link SeriesPayments}, {@link PaymentRecovery}) decide what
 * to send; {@link SettledCalls} writes what an answer settled. This class knows no HTTP.
 */
@Component
record PaymentSettlement(Payments payments, PaymentSessions sessions, Outbox outbox, PaymentViews views,
                         TransactionTemplate tx, PaymentSettings settings) {

    private static final Logger log = LoggerFactory.getLogger(PaymentSettlement.class);

    /** How long a writer keeps a payment from the recovery job while it calls the processor. */
    Duration lease() {
        return settings.lease();
    }

    /** A payment (and its session, for an attempt) moved by one writer, with its events not written yet. */
    final class Run {
        final Caller owner;
        final Payment payment;
        final PaymentSession session;
        final PaymentProcessor processor;
        /** The method as the processor receives it: only in memory, for the authorization, never written. */
        final PaymentMethodInput method;
        /**
         * Events to append when the run is written, each rendered then, so that it shows the aggregate as written
         * (a saved method, a created mandate, a retry decided in the same transaction).
         */
        final List<java.util.function.Supplier<Outbox.Event>> events = new ArrayList<>();
        /**
         * The card's reusable token, when the processor approved an authorization that asked to keep the card (a
         * first_in_series payment): only in memory until it is sealed into the saved method.
         */
        String methodToken;
        /**
         * Whether this run moved its session. Only then is the session written: a run that merely carries the session
         * (read before a processor call) must not write back a copy a concurrent writer has changed since (a payment
         * request's new {@code expires_at}).
         */
        private boolean sessionMoved;

        Run(Caller owner, Payment payment, PaymentSession session, PaymentProcessor processor, PaymentMethodInput method) {
            this.owner = owner;
            this.payment = payment;
            this.session = session;
            this.processor = processor;
            this.method = method;
        }

        void record(List<Payment.Transition> transitions) {
            for (Payment.Transition t : transitions) {
                events.add(() -> views.paymentEvent(payment, t.eventType()));
            }
        }

        void recordSession(PaymentSession.Transition transition) {
            PaymentSession moved = session;
            events.add(() -> views.sessionEvent(moved, transition.eventType()));
            sessionMoved = true;
        }

        /** Writes the payment, its session if it moved, and the events; the caller runs this inside a transaction. */
        void write(Duration leaseFor) {
            payments.update(payment, leaseFor);
            if (session != null && sessionMoved) {
                sessions.update(session);
                sessionMoved = false;
            }
            events.forEach(e -> outbox.append(owner, e.get()));
            events.clear();
        }

        void save(Duration leaseFor) {
            tx.executeWithoutResult(s -> write(leaseFor));
        }
    }

    /** A run by the system for a payment read from its row (the recovery job, a status query): no card in memory. */
    Run runOf(Payment payment, PaymentSession session, PaymentProcessor processor) {
        return new Run(Caller.system(payment.merchantId(), payment.mode()), payment, session, processor, null);
    }

    /**
     * Drives the pending call through the kernel and records where it stands (in memory; the caller writes the run).
     * Returns false when it is not settled: recorded {@code UNKNOWN} when it went out without a definite answer, or
     * left {@code PENDING} when a void that must happen did not get through; the recovery job takes either.
     */
    boolean settle(Run run, Settlement.Mode mode) {
        Payment payment = run.payment;
        String operation = payment.pending().orElseThrow().type().wire();
        return switch (Settlement.resolve(new ProcessorCall(run), mode)) {
            case Settlement.Resolution.Settled<ProcessorOutcome>(ProcessorOutcome outcome) -> {
                record(run, outcome);
                yield true;
            }
            case Settlement.Resolution.Unknown<ProcessorOutcome> unknown -> {
                log.warn("Outcome of {} on {} is unknown; the recovery job will ask after it", operation, payment.id());
                payment.markUnknown(Timestamps.now());
                yield false;
            }
            case Settlement.Resolution.NotArrived<ProcessorOutcome> notArrived -> {
                log.warn("The {} on {} did not reach the processor; it stays pending", operation, payment.id());
                yield false;
            }
        };
    }

    /** Records a definite outcome of the run's pending call on its payment (in memory). */
    void record(Run run, ProcessorOutcome outcome) {
        // A payment without a session (a subscription's charge) has nobody to try again: its decline is final.
        boolean retriesLeft = run.session != null && run.session.retriesLeft();
        if (run.payment.offSession() && outcome instanceof ProcessorOutcome.ActionRequired) {
            // Nobody is there to act (decisions §8): the charge fails, and the merchant may ask the customer.
            outcome = new ProcessorOutcome.Declined("authentication_required", "authentication_required",
                    "The card needs the customer to authenticate; ask them to pay (a payment request)");
        }
        if (outcome instanceof ProcessorOutcome.Approved approved && approved.methodToken() != null) {
            run.methodToken = approved.methodToken();
        }
        run.record(run.payment.settle(outcome, Timestamps.now(), retriesLeft, settings.authorizationTtl()));
    }

    /** A payment's pending processor call, as the kernel drives it. */
    private final class ProcessorCall implements PendingCall<ProcessorOutcome> {
        private final Run run;

        ProcessorCall(Run run) {
            this.run = run;
        }

        @Override
        public ProcessorOutcome send() {
            Payment p = run.payment;
            PaymentOperation operation = p.pending().orElseThrow();
            return switch (operation.type()) {
                case AUTHORIZE -> run.method == null
                        // The card is gone (a crash, or the recovery job): an authorization is never sent twice.
                        ? run.processor.status(operation.processorKey())
                        : run.processor.authorize(new PaymentProcessor.Authorize(operation.processorKey(),
                        p.amount(), p.currency(), run.method, p.captureMethod() == CaptureMethod.AUTOMATIC
                        && p.intent() == PaymentIntent.PAYMENT, views.returnUrl(run.session),
                        run.session != null && run.session.firstInSeries()
                                && run.method instanceof PaymentMethodInput.Card));
                case CAPTURE -> run.processor.capture(new PaymentProcessor.Capture(operation.processorKey(),
                        operation.authorizationKey(), operation.amount(), p.currency()));
                case VOID -> run.processor.release(new PaymentProcessor.Release(operation.processorKey(),
                        operation.authorizationKey(), operation.amount(), p.currency()));
            };
        }

        @Override
        public ProcessorOutcome status() {
            return run.processor.status(run.payment.pending().orElseThrow().processorKey());
        }

        @Override
        public Verdict classify(ProcessorOutcome outcome) {
            return switch (outcome) {
                // A payment's call is decided, never accepted for later: "pending" is no answer yet.
                case ProcessorOutcome.Unknown u -> Verdict.UNKNOWN;
                case ProcessorOutcome.Accepted a -> Verdict.UNKNOWN;
                case ProcessorOutcome.Declined d when d.neverReceived() -> Verdict.NEVER_RECEIVED;
                default -> Verdict.DEFINITE;
            };
        }

        @Override
        public void reissue() {
            run.payment.reissuePending(Timestamps.now());
            run.save(settings.lease());
        }
    }
}
