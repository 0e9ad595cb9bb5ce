package io.tender.payment;

import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.idempotency.StoredResponse;
import io.tender.outbox.Outbox;
import io.tender.processor.PaymentMethodInput;
import io.tender.processor.PaymentProcessor;
import io.tender.processor.ProcessorOutcome;
import io.tender.settlement.PendingCall;
import io.tender.settlement.Settlement;
import io.tender.settlement.WaitingKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What every payment flow shares around a processor call, on the settlement kernel that redemptions use: a
 * {@link Run} (a payment, and its session for an attempt, moved by one writer with its events), the kernel driving
 * the pending call to a definite outcome (never sending it twice), and the one transaction that writes a settled
 * attempt: the payment, the session's move, its origin's, the saved method, the obligation's payment and every
 * Idempotency-Key still waiting on the payment. The flows ({@link PaymentAttempts}, {@link CapturesAndVoids},
 * {@link PaymentRecovery}) decide what to send; this class knows no HTTP.
 */
@Component
record PaymentSettlement(Payments payments, PaymentSessions sessions, WaitingKeys waitingKeys, Outbox outbox,
                         PaymentObligations obligations, SavedPaymentMethods savedMethods, PublicBase publicBase,
                         TransactionTemplate tx, JsonMapper json, PaymentSettings settings,
                         List<SessionOrigin> origins, SeriesEnrolment enrolment, SeriesOutcomes seriesOutcomes) {

    private static final Logger log = LoggerFactory.getLogger(PaymentSettlement.class);
    static final String PAYMENT_AGGREGATE = "collect.payment";
    static final String SESSION_AGGREGATE = "collect.payment_session";

    /** How long a writer keeps a payment from the recovery job while it calls the processor. */
    Duration lease() {
        return settings.lease();
    }

    /** The origin module that opened sessions of {@code kind}, if one is there. */
    private Optional<SessionOrigin> origin(String kind) {
        return origins.stream().filter(o -> o.kind().equals(kind)).findFirst();
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
                events.add(() -> paymentEvent(payment, t.eventType()));
            }
        }

        void recordSession(PaymentSession.Transition transition) {
            PaymentSession moved = session;
            events.add(() -> sessionEvent(moved, transition.eventType()));
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

    Outbox.Event paymentEvent(Payment payment, String type) {
        return new Outbox.Event(PAYMENT_AGGREGATE, payment.id(), type, payment.updatedAt(),
                json.writeValueAsBytes(PaymentView.of(payment)));
    }

    Outbox.Event sessionEvent(PaymentSession session, String type) {
        return new Outbox.Event(SESSION_AGGREGATE, session.id(), type, session.updatedAt(),
                json.writeValueAsBytes(view(session)));
    }

    PaymentSessionView view(PaymentSession session) {
        return PaymentSessionView.of(session, publicBase.url());
    }

    StoredResponse answer(Payment payment) {
        return StoredResponse.json(200, json.writeValueAsBytes(PaymentView.of(payment)));
    }

    /** The session's latest attempt, if it has one. */
    Optional<Payment> latest(PaymentSession session) {
        return session.paymentId() == null ? Optional.empty() : payments.find(session.paymentId());
    }

    /** Appends a session's move to the outbox in the caller's transaction and tells its origin. */
    void moved(Caller owner, PaymentSession session, PaymentSession.Transition transition, Payment ended) {
        sessions.update(session);
        outbox.append(owner, sessionEvent(session, transition.eventType()));
        tellOrigin(owner, session, ended);
    }

    /**
     * Tells a session's origin (a payment request, a payment page visit) how the session moved, in the transaction
     * writing the move. {@code payment}: the attempt that ended with this move, or null.
     */
    void tellOrigin(Caller owner, PaymentSession session, Payment payment) {
        if (session.origin() == null) {
            return;
        }
        SessionOrigin origin = origin(session.origin().kind())
                .orElseThrow(() -> new IllegalStateException("No SessionOrigin for " + session.origin().kind()));
        boolean ended = payment != null && payment.status().isFinal() && payment.id().equals(session.paymentId());
        origin.moved(owner, new SessionOrigin.Move(session.origin().id(), view(session),
                ended ? PaymentView.of(payment) : null));
    }

    /** What the checkout shows of a session's origin, if it has one. */
    Optional<SessionOrigin.Presentation> presentOrigin(PaymentSession session) {
        return Optional.ofNullable(session.origin()).flatMap(o -> origin(o.kind())
                .flatMap(origin -> origin.present(o.id())));
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

    /**
     * Sends the run's pending call and writes where it stands: the settled attempt through {@link #finish}, or, its
     * outcome unknown (or a call that must happen not arrived), the payment as it is, for the recovery job.
     */
    void settleAndFinish(Run run) {
        if (settle(run, Settlement.Mode.SEND)) {
            finish(run);
        } else {
            run.save(null);
        }
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

    /**
     * Writes a settled run: the payment, the session's move, and for a success the obligation's payment, in one
     * transaction. An authorization waiting for the customer is written as it is (pending).
     */
    void finish(Run run) {
        tx.executeWithoutResult(s -> {
            Run locked = run.session == null ? run : withLockedSession(run);
            if (locked.payment.offSession() && locked.payment.status().isFinal()) {
                seriesOutcomes.settled(locked);
            }
            locked.write(null);
            if (locked.session != null && locked.payment.status().isFinal()) {
                tellOrigin(locked.owner, locked.session, locked.payment);
            }
            if (locked.payment.status() == PaymentStatus.SUCCEEDED && locked.payment.obligationId() != null) {
                obligations.applyReceived(locked.owner, locked.payment.id()).ifPresent(reason -> log.error(
                        "Payment {} succeeded but could not be applied to {}: {}. An operator must reconcile it.",
                        locked.payment.id(), locked.payment.obligationId(), reason));
            }
            completeWaitingKeys(locked.payment);
            if (locked.session != null && locked.session.nextInSeries() && locked.payment.status().isFinal()) {
                // The key of a charge whose request is gone (a crash, or the recovery job finishing it) replays the
                // session as it ended; a request still running completes its key itself, with the same answer.
                StoredResponse answer = StoredResponse.json(201, json.writeValueAsBytes(view(locked.session)));
                waitingKeys.complete(locked.session.merchantId(), locked.session.mode().wire(), locked.session.id(),
                        waiting -> answer);
            }
        });
    }

    /**
     * Writes several settled subscription charges (no session, no obligation: {@code SubscriptionCharges}' runs) in one
     * transaction, as {@link #finish} writes each: their series' moves ({@link SeriesOutcomes#settledAll}), the
     * payments, their events and the Idempotency-Keys waiting on them, each table in one round trip. The payments are
     * locked first, after their mandates and subscriptions; one that another writer moved since it was read (the
     * recovery job, after its lease ran out) is left out, as {@link #finish} would throw {@code StaleWrite} for it.
     * Returns the runs written.
     */
    List<Run> finishAll(List<Run> runs) {
        if (runs.stream().anyMatch(r -> r.session != null || r.payment.obligationId() != null
                || !r.payment.offSession() || r.payment.series().subscriptionId() == null)) {
            throw new IllegalArgumentException("finishAll writes subscription charges only");
        }
        List<Run> written = tx.execute(s -> {
            SeriesOutcomes.Locked locked = seriesOutcomes.lockAll(runs);
            var revisions = payments.lockRevisions(runs.stream().map(r -> r.payment.id()).toList());
            List<Run> current = new ArrayList<>(runs.size());
            for (Run run : runs) {
                if (Integer.valueOf(run.payment.revision()).equals(revisions.get(run.payment.id()))) {
                    current.add(run);
                } else {
                    log.debug("{} was moved by another writer meanwhile", run.payment.id());
                }
            }
            seriesOutcomes.settledAll(locked, current.stream().filter(r -> r.payment.status().isFinal()).toList());
            payments.updateAll(current.stream().map(r -> r.payment).toList(), null);
            List<Outbox.Owned> events = new ArrayList<>();
            for (Run run : current) {
                run.events.forEach(e -> events.add(new Outbox.Owned(run.owner, e.get())));
            }
            outbox.appendAll(events);
            current.forEach(r -> r.events.clear());
            waitingKeys.completeAll(current.stream().map(r -> new WaitingKeys.Final(r.payment.merchantId(),
                    r.payment.mode().wire(), r.payment.id(), waiting -> answer(r.payment))).toList());
            return current;
        });
        return written == null ? List.of() : written;
    }

    /**
     * The run with its session read again and locked, inside the final transaction: the session may have changed
     * since the attempt started (a payment request's new expiry), and the move is made on the one in the database.
     * A final payment that is still the session's latest attempt ends it (saving its method, if it should).
     */
    private Run withLockedSession(Run run) {
        PaymentSession session = sessions.findById(run.session.id(), true).orElseThrow();
        Run locked = new Run(run.owner, run.payment, session, run.processor, null);
        locked.events.addAll(run.events);
        locked.methodToken = run.methodToken;
        if (locked.payment.status().isFinal() && locked.payment.id().equals(session.paymentId())) {
            SavedPaymentMethod saved = saveMethod(locked.payment, session, run.methodToken);
            locked.recordSession(session.attemptEnded(locked.payment, Timestamps.now()));
            if (session.firstInSeries() && locked.payment.status() == PaymentStatus.SUCCEEDED) {
                enrolment.enrol(locked, saved);
            }
        }
        return locked;
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
        boolean wanted = payment.intent() == Payment.Intent.PAYMENT_METHOD_VERIFICATION
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

    /** Completes the keys of capture and void requests that never got their answer with the final payment. */
    private void completeWaitingKeys(Payment payment) {
        StoredResponse view = answer(payment);
        waitingKeys.complete(payment.merchantId(), payment.mode().wire(), payment.id(), waiting -> view);
    }

    /** The checkout's return route for a processor's 3-D Secure or bank page; null without a checkout. */
    private String returnUrl(PaymentSession session) {
        return session == null || session.checkoutSessionId() == null ? null
                : publicBase.url() + "/checkout/" + session.checkoutSessionId() + "/return";
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
                        p.amount(), p.currency(), run.method, p.captureMethod() == Payment.CaptureMethod.AUTOMATIC
                        && p.intent() == Payment.Intent.PAYMENT, returnUrl(run.session),
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
