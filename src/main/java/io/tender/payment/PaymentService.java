package io.tender.payment;

import io.tender.api.Ids;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.api.Rejections;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.idempotency.IdempotencyKeys;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.StoredResponse;
import io.tender.outbox.Outbox;
import io.tender.processor.PaymentMethodInput;
import io.tender.processor.PaymentProcessor;
import io.tender.processor.PaymentProcessors;
import io.tender.processor.ProcessorOutcome;
import io.tender.settlement.PendingCall;
import io.tender.settlement.Settlement;
import io.tender.settlement.StaleWrite;
import io.tender.settlement.WaitingKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Moves payments and their sessions through atomic phases around each processor call, on the settlement kernel that
 * redemptions use: one transaction records the call as pending with the key the processor will receive (and claims
 * the request's Idempotency-Key); the processor is called with no transaction open; one transaction records the
 * answer with its events (and, for a session's payment that succeeded, applies it to its bill or account), and
 * completes the key. An unknown answer is resolved by the call's status, never by sending it again; what stays
 * unknown is left pending for {@link PaymentRecovery}, and an API request answers 504.
 * Knows no HTTP: the controllers, the checkout and the recovery job call its commands.
 */
@Service
class PaymentService {

    private static final Logger log = LoggerFactory.getLogger(PaymentService.class);
    static final String PAYMENT_AGGREGATE = "collect.payment";
    static final String SESSION_AGGREGATE = "collect.payment_session";

    private final Payments payments;
    private final PaymentSessions sessions;
    private final IdempotencyKeys keys;
    private final IdempotentRequests idempotent;
    private final WaitingKeys waitingKeys;
    private final Outbox outbox;
    private final PaymentProcessors processors;
    private final PaymentObligations obligations;
    private final SavedPaymentMethods savedMethods;
    private final PublicBase publicBase;
    private final TransactionTemplate tx;
    private final JsonMapper json;
    private final Duration lease;
    private final Duration authorizationTtl;
    private final Map<String, SessionOrigin> origins;
    private final Rejections rejections;

    PaymentService(Payments payments, PaymentSessions sessions, IdempotencyKeys keys, IdempotentRequests idempotent,
                   WaitingKeys waitingKeys, Outbox outbox, PaymentProcessors processors,
                   PaymentObligations obligations, SavedPaymentMethods savedMethods, PublicBase publicBase, TransactionTemplate tx, JsonMapper json,
                   PaymentSettings settings,
                   List<SessionOrigin> origins, Rejections rejections) {
        this.payments = payments;
        this.sessions = sessions;
        this.keys = keys;
        this.idempotent = idempotent;
        this.waitingKeys = waitingKeys;
        this.outbox = outbox;
        this.processors = processors;
        this.obligations = obligations;
        this.savedMethods = savedMethods;
        this.publicBase = publicBase;
        this.tx = tx;
        this.json = json;
        this.lease = settings.lease();
        this.authorizationTtl = settings.authorizationTtl();
        this.origins = origins.stream().collect(java.util.stream.Collectors.toUnmodifiableMap(SessionOrigin::kind,
                o -> o));
        this.rejections = rejections;
    }

    /** A payment (and its session, for an attempt) moved by one writer, with its events not written yet. */
    final class Run {
        final Caller owner;
        final Payment payment;
        final PaymentSession session;
        final PaymentProcessor processor;
        /** The method as the processor receives it: only in memory, for the authorization, never written. */
        final PaymentMethodInput method;
        final List<Outbox.Event> events = new ArrayList<>();
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
                events.add(paymentEvent(payment, t.eventType()));
            }
        }

        void recordSession(PaymentSession.Transition transition) {
            events.add(sessionEvent(session, transition.eventType()));
            sessionMoved = true;
        }

        /** Writes the payment, its session if it moved, and the events; the caller runs this inside a transaction. */
        void write(Duration leaseFor) {
            payments.update(payment, leaseFor);
            if (session != null && sessionMoved) {
                sessions.update(session);
                sessionMoved = false;
            }
            events.forEach(e -> outbox.append(owner, e));
            events.clear();
        }

        void save(Duration leaseFor) {
            tx.executeWithoutResult(s -> write(leaseFor));
        }
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

    // ---- sessions -------------------------------------------------------------------------------------------

    StoredResponse createSession(Caller caller, KeyedRequest request, NewPaymentSession command) {
        return idempotent.execute(caller, request, () -> {
            if (!command.type().equals("one_time")) {
                throw new PaymentRejection.SeriesNotOffered(command.type()).thrown();
            }
            return new IdempotentRequests.Result(201, view(open(caller, command, null)));
        });
    }

    /**
     * Opens a session in the caller's transaction: checks its bill or account, records it and its
     * {@code payment_session.created}. {@code origin}: the payment request or page visit it is for, or null.
     */
    PaymentSession open(Caller caller, NewPaymentSession command, SessionOrigin.Ref origin) {
        long amount = command.amount() == null ? 0 : command.amount();
        String currency = command.currency();
        String obligationId = null;
        String customerId = command.customer();
        if (command.target() != null) {
            var target = obligations.check(caller, command.target(), command.targetReference(), command.amount(),
                    command.currency());
            amount = target.amount();
            currency = target.currency();
            obligationId = target.obligationId();
            customerId = customerId != null ? customerId : target.customerId();
        }
        // The default expiry was counted from the request's time: the session is created at that time too.
        Instant now = command.requestedAt();
        PaymentSession session = new PaymentSession(Ids.newId("ps_"), caller.merchantId(), caller.mode(),
                "ckt_" + Ids.randomHex(16), command.type(), amount, currency, command.country(), customerId,
                obligationId, command.options().checkoutOptions().returnUrl(), command.externalReference(),
                command.metadata(), command.expiresAt(), now, command.options(), PaymentSession.Status.ACTIVE,
                "not_started", null, null, 0, false, 1, now).withOrigin(origin);
        sessions.insert(session);
        outbox.append(caller, sessionEvent(session, PaymentSession.Transition.CREATED.eventType()));
        return session;
    }

    PaymentSessionView getSession(Caller caller, String id) {
        return view(sessions.get(caller, id, false));
    }

    /** {@code POST …/cancel}: ends an active session no attempt is in flight for. */
    StoredResponse cancelSession(Caller caller, KeyedRequest request, String id) {
        return idempotent.execute(caller, request, () -> {
            PaymentSession session = sessions.get(caller, id, true);
            cancel(caller, session);
            return new IdempotentRequests.Result(200, view(session));
        });
    }

    /** Cancels a locked session inside the caller's transaction. */
    void cancel(Caller caller, PaymentSession session) {
        boolean inFlight = latest(session).filter(p -> p.status() == PaymentStatus.PENDING).isPresent();
        if (session.status() != PaymentSession.Status.ACTIVE || inFlight) {
            throw (session.status() != PaymentSession.Status.ACTIVE
                    ? new PaymentRejection.SessionNotActive(session.status().wire())
                    : new PaymentRejection.AttemptInFlight()).thrown();
        }
        var transition = session.cancel(Timestamps.now());
        sessions.update(session);
        outbox.append(caller, sessionEvent(session, transition.eventType()));
        tellOrigin(caller, session, null);
    }

    /** Moves an active session's expiry (its payment request's changed) inside the caller's transaction. */
    void reschedule(Caller caller, PaymentSession session, Instant expiresAt) {
        if (session.status() != PaymentSession.Status.ACTIVE) {
            throw new PaymentRejection.SessionNotActive(session.status().wire()).thrown();
        }
        var transition = session.reschedule(expiresAt, Timestamps.now());
        sessions.update(session);
        outbox.append(caller, sessionEvent(session, transition.eventType()));
    }

    /**
     * Tells a session's origin (a payment request, a payment page visit) how the session moved, in the transaction
     * writing the move. {@code payment}: the attempt that ended with this move, or null.
     */
    private void tellOrigin(Caller owner, PaymentSession session, Payment payment) {
        if (session.origin() == null) {
            return;
        }
        SessionOrigin origin = origins.get(session.origin().kind());
        if (origin == null) {
            throw new IllegalStateException("No SessionOrigin for " + session.origin().kind());
        }
        boolean ended = payment != null && payment.status().isFinal() && payment.id().equals(session.paymentId());
        origin.moved(owner, new SessionOrigin.Move(session.origin().id(), view(session),
                ended ? PaymentView.of(payment) : null));
    }

    /** What the checkout shows of a session's origin, if it has one. */
    Optional<SessionOrigin.Presentation> presentOrigin(PaymentSession session) {
        return Optional.ofNullable(session.origin()).flatMap(o -> Optional.ofNullable(origins.get(o.kind()))
                .flatMap(origin -> origin.present(o.id())));
    }

    /** {@code POST …/complete}: the merchant's next method, after an attempt with {@code payment_method_selection: merchant}. */
    StoredResponse completeSession(Caller caller, KeyedRequest request, String id, String selected, List<String> visible) {
        return idempotent.execute(caller, request, () -> {
            PaymentSession session = sessions.get(caller, id, true);
            if (session.status() != PaymentSession.Status.ACTIVE || !session.waitingForMerchant()) {
                throw new PaymentRejection.NotWaitingForSelection().thrown();
            }
            var transition = session.completeSelection(selected, visible, Timestamps.now());
            sessions.update(session);
            outbox.append(caller, sessionEvent(session, transition.eventType()));
            return new IdempotentRequests.Result(200, view(session));
        });
    }

    Optional<Payment> latest(PaymentSession session) {
        return session.paymentId() == null ? Optional.empty() : payments.find(session.paymentId());
    }

    // ---- attempts (the checkout) -----------------------------------------------------------------------------

    /**
     * Starts an attempt at a session with the customer's method: records the payment with its authorization
     * pending, sends it, and records the answer. Returns the payment as it stands afterwards ({@code pending} while an
     * answer is unknown or the customer still has to act).
     */
    Payment startAttempt(PaymentSession locked, PaymentMethodInput method, PaymentMethods methods) {
        Caller owner = Caller.system(locked.merchantId(), locked.mode());
        PaymentProcessor processor = processors.forMode(locked.mode());
        Run run = tx.execute(s -> {
            PaymentSession session = sessions.findById(locked.id(), true).orElseThrow();
            boolean inFlight = latest(session).filter(p -> p.status() == PaymentStatus.PENDING).isPresent();
            String refusal = session.attemptRefusal(Timestamps.now(), inFlight);
            if (refusal != null) {
                throw new PaymentRejection.AttemptRefused(refusal).thrown();
            }
            if (session.obligationId() != null) {
                obligations.recheck(owner, session.obligationId(), session.amount(), session.currency());
            }
            Instant now = Timestamps.now();
            Payment payment = Payment.attempt(session.merchantId(), session.mode(), session,
                    session.amount() == 0 ? Payment.Intent.PAYMENT_METHOD_VERIFICATION : Payment.Intent.PAYMENT,
                    method instanceof PaymentMethodInput.Card ? session.options().captureMethod()
                            : Payment.CaptureMethod.AUTOMATIC,
                    PaymentMethods.details(method), methods.fingerprint(method), now);
            payment.beginAuthorization(now);
            payments.insert(payment, lease);
            var transition = session.attemptStarted(payment.id(), now);
            sessions.update(session);
            outbox.append(owner, sessionEvent(session, transition.eventType()));
            return new Run(owner, payment, session, processor, method);
        });
        if (!settle(run, Settlement.Mode.SEND)) {
            payments.release(run.payment);
            return run.payment;
        }
        finishAttempt(run);
        return run.payment;
    }

    /**
     * Writes a settled attempt: the payment, the session's move, and for a success the obligation's payment, in one
     * transaction. An authorization waiting for the customer is written as it is (pending).
     */
    private void finishAttempt(Run run) {
        tx.executeWithoutResult(s -> {
            Run locked = run.session == null ? run : withLockedSession(run);
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
        });
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
        if (locked.payment.status().isFinal() && locked.payment.id().equals(session.paymentId())) {
            saveMethod(locked.payment, session);
            locked.recordSession(session.attemptEnded(locked.payment, Timestamps.now()));
        }
        return locked;
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
        Run run = new Run(Caller.system(payment.merchantId(), payment.mode()), payment, session,
                processors.forMode(payment.mode()), null);
        ProcessorOutcome outcome = run.processor.status(payment.pending().orElseThrow().processorKey());
        if (outcome instanceof ProcessorOutcome.ActionRequired || outcome instanceof ProcessorOutcome.Unknown) {
            return;
        }
        run.payment.settle(outcome, Timestamps.now(), session == null || session.retriesLeft(), authorizationTtl);
        try {
            finishAttempt(run);
        } catch (StaleWrite e) {
            log.debug("{} was moved by another writer meanwhile", payment.id());
        }
    }

    /**
     * Saves the card of a session's succeeded attempt as a {@code pm_} (decisions §6): always for a verification, and
     * for a payment when the session asked {@code save_payment_method: always}. Runs inside the transaction that
     * records the success, before the payment, the session and their events are written, so that all of them show
     * its id. Once only: a payment that already saved one saves no other.
     */
    private void saveMethod(Payment payment, PaymentSession session) {
        boolean card = payment.paymentMethodDetails() != null
                && "card".equals(payment.paymentMethodDetails().get("type"));
        var checkout = session.options() == null ? null : session.options().checkoutOptions();
        boolean wanted = payment.intent() == Payment.Intent.PAYMENT_METHOD_VERIFICATION
                || (checkout != null && "always".equals(checkout.savePaymentMethod()));
        if (payment.status() != PaymentStatus.SUCCEEDED || !card || !wanted || payment.paymentMethodId() != null) {
            return;
        }
        SavedPaymentMethod saved = savedMethods.saveFrom(payment, session.customerId(), Timestamps.now());
        payment.withPaymentMethod(saved.id());
        session.withPaymentMethod(saved.id());
    }

    // ---- captures and voids ----------------------------------------------------------------------------------

    StoredResponse capture(Caller caller, String id, KeyedRequest request, Integer ifMatch, Long amount,
                           Map<String, String> metadata) {
        return act(caller, id, request, ifMatch, payment -> {
            Instant now = Timestamps.now();
            payment.notCapturable(now).ifPresent(reason -> {
                throw new PaymentRejection.NotCapturable(reason).thrown();
            });
            long remaining = payment.remaining();
            if (remaining == 0) {
                throw new PaymentRejection.NothingToCapture().thrown();
            }
            long captured = amount == null ? remaining : amount;
            if (captured > remaining) {
                throw new PaymentRejection.CaptureOverRemaining(captured, remaining).thrown();
            }
            payment.mergeMetadata(metadata, now);
            payment.beginCapture(captured, now);
        });
    }

    StoredResponse voidPayment(Caller caller, String id, KeyedRequest request, Integer ifMatch,
                               Map<String, String> metadata) {
        return act(caller, id, request, ifMatch, payment -> {
            Instant now = Timestamps.now();
            payment.notCapturable(now).ifPresent(reason -> {
                throw new PaymentRejection.NotCapturable(reason).thrown();
            });
            if (payment.remaining() == 0) {
                throw new PaymentRejection.NothingToVoid().thrown();
            }
            payment.mergeMetadata(metadata, now);
            payment.beginVoid(now);
        });
    }

    private StoredResponse act(Caller caller, String id, KeyedRequest request, Integer ifMatch,
                               java.util.function.Consumer<Payment> begin) {
        var start = idempotent.start(caller, request, id, () -> {
            Payment payment = payments.get(caller, id);
            if (ifMatch != null && ifMatch != payment.version()) {
                throw new PaymentRejection.VersionMismatch(payment.version(), ifMatch).thrown();
            }
            PaymentProcessor processor = processors.forMode(caller.mode());
            begin.accept(payment);
            try {
                payments.update(payment, lease);
            } catch (StaleWrite e) {
                throw new PaymentRejection.ChangedConcurrently().thrown();
            }
            return new Run(caller, payment, null, processor, null);
        });
        if (start instanceof IdempotentRequests.Start.Answered<Run>(StoredResponse response)) {
            return response;
        }
        Run run = ((IdempotentRequests.Start.Running<Run>) start).value();
        if (!settle(run, Settlement.Mode.SEND)) {
            payments.release(run.payment);
            throw new PaymentRejection.NoDefiniteAnswer(run.payment.id()).thrown();
        }
        PaymentOperation settled = run.payment.operations().getLast();
        StoredResponse response = StoredResponse.json(200, json.writeValueAsBytes(PaymentView.of(run.payment)));
        tx.executeWithoutResult(s -> {
            run.write(null);
            if (request.key() != null) {
                keys.complete(caller, request.key(), settled.status() == PaymentOperation.Status.FAILED
                        ? request.failures().apply(rejections.problem(refused(settled))) : response);
            }
        });
        if (settled.status() == PaymentOperation.Status.FAILED) {
            throw refused(settled).thrown();
        }
        return response;
    }

    private static PaymentRejection refused(PaymentOperation operation) {
        return new PaymentRejection.ProcessorRefused(operation.type().wire(),
                operation.error() == null ? null : operation.error().message());
    }

    // ---- the kernel ------------------------------------------------------------------------------------------

    /**
     * Drives the pending call through the kernel and records its outcome (in memory). Returns false when it stays
     * unknown (or a void that must happen did not get through): the call stays pending for the recovery job.
     */
    boolean settle(Run run, Settlement.Mode mode) {
        Payment payment = run.payment;
        var outcome = Settlement.resolve(new ProcessorCall(run), mode);
        if (outcome.isEmpty()) {
            log.warn("Outcome of {} on {} is unknown; it stays pending", payment.pending().orElseThrow().type().wire(),
                    payment.id());
            return false;
        }
        boolean retriesLeft = run.session == null || run.session.retriesLeft();
        run.record(payment.settle(outcome.get(), Timestamps.now(), retriesLeft, authorizationTtl));
        return true;
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
                        && p.intent() == Payment.Intent.PAYMENT, returnUrl(run.session)));
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
                case ProcessorOutcome.Unknown u -> Verdict.UNKNOWN;
                case ProcessorOutcome.Declined d when d.neverReceived() -> Verdict.NEVER_RECEIVED;
                default -> Verdict.DEFINITE;
            };
        }

        @Override
        public void reissue() {
            run.payment.reissuePending(Timestamps.now());
            run.save(lease);
        }
    }

    // ---- recovery --------------------------------------------------------------------------------------------

    /**
     * Finishes a payment a crash or a lost answer left unfinished, or releases an expired authorization (called by the
     * recovery job, which holds its lease). A pending call is asked after, never sent again; a capture or void that
     * never arrived is sent again under a fresh key. When the payment is final, every Idempotency-Key waiting on it
     * gets the final answer.
     */
    void recover(Payment payment, Instant now) {
        var processor = processors.find(payment.mode());
        if (processor.isEmpty()) {
            log.warn("Cannot recover {}: no processor for {} mode", payment.id(), payment.mode().wire());
            payments.release(payment);
            return;
        }
        PaymentSession session = payment.paymentSessionId() == null ? null
                : sessions.findById(payment.paymentSessionId(), false).orElse(null);
        Run run = new Run(Caller.system(payment.merchantId(), payment.mode()), payment, session, processor.get(), null);
        var pending = payment.pending();
        if (pending.isPresent()) {
            boolean mustHappen = pending.get().type() != PaymentOperation.Type.AUTHORIZE;
            boolean resolved = settle(run, new Settlement.Mode(true, mustHappen,
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
            run.save(lease);
            if (!settle(run, Settlement.Mode.SEND)) {
                run.save(null);
                return;
            }
        } else {
            payments.release(payment);
            return;
        }
        finishAttempt(run);
        log.info("Recovered {}: {}", payment.id(), payment.status().wire());
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
        Optional<Payment> latest = latest(current.get());
        if (latest.isPresent() && latest.get().status() == PaymentStatus.PENDING) {
            Payment payment = latest.get();
            if (payment.awaitingCustomer().isEmpty() || payment.pending().get().type() != PaymentOperation.Type.AUTHORIZE) {
                return;
            }
            Run run = new Run(Caller.system(payment.merchantId(), payment.mode()), payment, null,
                    processors.forMode(payment.mode()), null);
            payment.beginVoid(Timestamps.now());
            try {
                run.save(lease);
            } catch (StaleWrite e) {
                return;
            }
            if (!settle(run, Settlement.Mode.SEND)) {
                run.save(null);
                return;
            }
            run.save(null);
        }
        tx.executeWithoutResult(s -> {
            PaymentSession session = sessions.findById(locked.id(), true).orElseThrow();
            if (session.status() != PaymentSession.Status.ACTIVE || stillOpen(session)) {
                return;
            }
            Optional<Payment> last = latest(session);
            if (last.isPresent() && last.get().status() == PaymentStatus.SUCCEEDED) {
                var transition = session.attemptEnded(last.get(), Timestamps.now());
                sessions.update(session);
                outbox.append(Caller.system(session.merchantId(), session.mode()), sessionEvent(session, transition.eventType()));
                tellOrigin(Caller.system(session.merchantId(), session.mode()), session, last.get());
                return;
            }
            var transition = session.expire(Timestamps.now());
            sessions.update(session);
            outbox.append(Caller.system(session.merchantId(), session.mode()), sessionEvent(session, transition.eventType()));
            tellOrigin(Caller.system(session.merchantId(), session.mode()), session,
                    last.filter(p -> p.status() == PaymentStatus.EXPIRED).orElse(null));
        });
    }

    /** An active session whose expiry has not come (it was moved later after the recovery job picked it). */
    private static boolean stillOpen(PaymentSession session) {
        return session.status() == PaymentSession.Status.ACTIVE && Timestamps.now().isBefore(session.expiresAt());
    }

    /** Completes the keys of capture and void requests that never got their answer with the final payment. */
    private void completeWaitingKeys(Payment payment) {
        byte[] view = json.writeValueAsBytes(PaymentView.of(payment));
        waitingKeys.complete(payment.merchantId(), payment.mode().wire(), payment.id(),
                waiting -> StoredResponse.json(200, view));
    }

    // ---- reads -----------------------------------------------------------------------------------------------

    PaymentView get(Caller caller, String id) {
        return PaymentView.of(payments.get(caller, id));
    }

    ListPage<PaymentView> list(Caller caller, ListQuery query, String status, String session, String externalReference) {
        return ListPage.of(payments.list(caller, query, status, session, externalReference), query.limit(),
                Payment::id, PaymentView::of);
    }
}
