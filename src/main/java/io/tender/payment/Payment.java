package io.tender.payment;

import io.tender.api.Ids;
import io.tender.api.Timestamps;
import io.tender.auth.Mode;
import io.tender.processor.ProcessorOutcome;
import io.tender.settlement.CallStatus;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The payment aggregate (decisions §6). It owns its status, amounts, version and processor operations; each
 * transition returns the events it causes, which the service writes in the transaction of the new state. Amount rule:
 * {@code paid_amount + voided_amount <= authorized_amount} once authorized; {@code authorized_amount} never changes
 * after the authorization. {@code version} goes up with every change a client can see.
 */
public final class Payment {

    /** A state change, named as the event it emits ({@code payment.<name>}). */
    enum Transition {
        SUCCEEDED, ATTEMPT_FAILED, FAILED, CAPTURED, VOIDED, CANCELLED, EXPIRED;

        String eventType() {
            return "payment." + name().toLowerCase();
        }
    }

    /**
     * What a payment is for and how it is taken, fixed when it is created. {@code customerId} and {@code obligationId}
     * are null when it pays no customer's obligation.
     */
    record Terms(String merchantId, Mode mode, PaymentIntent intent, CaptureMethod captureMethod, long amount,
                 String currency, String country, String customerId, String obligationId) {
    }

    /**
     * The session a payment is an attempt at, fixed when the attempt starts: the session, its
     * {@code external_reference}, and the fingerprint of the card tried (null for other methods); {@link #NONE} for a
     * payment made outside any session.
     */
    record Attempt(String paymentSessionId, String externalReference, String cardFingerprint) {
        static final Attempt NONE = of(null, null);

        static Attempt of(PaymentSession session, String fingerprint) {
            return session == null ? new Attempt(null, null, fingerprint)
                    : new Attempt(session.id(), session.externalReference(), fingerprint);
        }
    }

    /** What a stored row holds; {@link Payments} reads one from each row. */
    record Snapshot(String id, Terms terms, Attempt attempt, Instant createdAt,
                    Map<String, Object> paymentMethodDetails, Map<String, String> metadata, String paymentMethodId,
                    PaymentStatus status, long authorizedAmount, Instant authorizationExpiresAt, long paidAmount,
                    long voidedAmount, long refundedAmount, PaymentError lastPaymentError, int version,
                    List<PaymentOperation> operations, Instant updatedAt, int revision, SeriesCharge series,
                    ChargeRetry retry) {
    }

    private final String id;
    private final Terms fixed;
    private final Attempt attempt;
    private final Instant createdAt;

    private Map<String, Object> paymentMethodDetails;
    private Map<String, String> metadata;
    private PaymentStatus status;
    private long authorizedAmount;
    private Instant authorizationExpiresAt;
    private long paidAmount;
    private long voidedAmount;
    /** What its succeeded refunds gave back, as read: only a refund's success writes it ({@code Refunds}). */
    private long refundedAmount;
    private PaymentError lastPaymentError;
    private int version;
    /** The version as last read or written: a write adds what this writer moved it since ({@link #versionMoved}). */
    private int storedVersion;
    private final ProcessorCalls calls;
    private Instant updatedAt;
    private int revision;
    /** The {@code pm_} this payment saved, or the saved one it charged; null for neither. */
    private String paymentMethodId;
    /** A charge of a mandate: at creation, or (the first payment of a series) once its success created the mandate. */
    private SeriesCharge series;
    private ChargeRetry retry;

    /**
     * The fixed part of a payment, with its processor calls; each factory then sets the state the payment starts in.
     */
    private Payment(String id, Terms terms, Attempt attempt, Instant createdAt, List<PaymentOperation> operations) {
        this.id = id;
        this.fixed = terms;
        this.attempt = attempt;
        this.createdAt = createdAt;
        this.calls = new ProcessorCalls(id, operations);
    }

    /** A payment that has already succeeded in full (billing's test helper): automatic capture, no processor call. */
    static Payment succeeded(String merchantId, Mode mode, long amount, String currency, String obligationId,
                             String customerId, Instant now) {
        var terms = new Terms(merchantId, mode, PaymentIntent.PAYMENT, CaptureMethod.AUTOMATIC, amount, currency, "ZA",
                customerId, obligationId);
        Payment payment = new Payment(Ids.newId(Payments.PREFIX), terms, Attempt.NONE, now, List.of());
        payment.status = PaymentStatus.SUCCEEDED;
        payment.authorizedAmount = amount;
        payment.paidAmount = amount;
        payment.version = 2;
        payment.updatedAt = now;
        return payment;
    }

    /** A customer's attempt at a session, in {@code draft} at version 1: nothing sent yet. */
    static Payment attempt(String merchantId, Mode mode, PaymentSession session, PaymentIntent intent,
                           CaptureMethod captureMethod, Map<String, Object> details, String fingerprint, Instant now) {
        Payment payment = new Payment(Ids.newId(Payments.PREFIX), new Terms(merchantId, mode, intent, captureMethod,
                session.amount(), session.currency(), session.country(), session.customerId(), session.obligationId()),
                Attempt.of(session, fingerprint), now, List.of());
        payment.paymentMethodDetails = details;
        payment.metadata = session.metadata();
        payment.status = PaymentStatus.DRAFT;
        payment.version = 1;
        payment.updatedAt = now;
        return payment;
    }

    /**
     * A charge of a mandate without the customer (decisions §8), in {@code draft}: of the saved method
     * {@code paymentMethodId} (its {@code details} and fingerprint), for a {@code next_in_series} session (the
     * merchant's) or a subscription's period (no session: {@code session} null).
     */
    static Payment charge(Terms terms, PaymentSession session, SavedPaymentMethod method, SeriesCharge series,
                          Map<String, String> metadata, Instant now) {
        Payment payment = new Payment(Ids.newId(Payments.PREFIX), terms, Attempt.of(session, method.fingerprint()),
                now, List.of());
        payment.paymentMethodDetails = method.details();
        payment.paymentMethodId = method.id();
        payment.series = series;
        payment.metadata = metadata;
        payment.status = PaymentStatus.DRAFT;
        payment.version = 1;
        payment.updatedAt = now;
        return payment;
    }

    /** The payment a stored row holds, as it was written. */
    static Payment restored(Snapshot row) {
        Payment payment = new Payment(row.id(), row.terms(), row.attempt(), row.createdAt(), row.operations());
        payment.paymentMethodDetails = row.paymentMethodDetails();
        payment.metadata = row.metadata();
        payment.paymentMethodId = row.paymentMethodId();
        payment.status = row.status();
        payment.authorizedAmount = row.authorizedAmount();
        payment.authorizationExpiresAt = row.authorizationExpiresAt();
        payment.paidAmount = row.paidAmount();
        payment.voidedAmount = row.voidedAmount();
        payment.refundedAmount = row.refundedAmount();
        payment.lastPaymentError = row.lastPaymentError();
        payment.version = row.version();
        payment.storedVersion = row.version();
        payment.updatedAt = row.updatedAt();
        payment.revision = row.revision();
        payment.series = row.series();
        payment.retry = row.retry();
        return payment;
    }

    /**
     * Records the authorization about to be sent; the draft is {@code pending} from now on. Only a draft authorizes.
     * A subscription's charge goes under its {@link SeriesCharge#processorKey}.
     */
    PaymentOperation beginAuthorization(Instant now) {
        if (status != PaymentStatus.DRAFT) {
            throw new IllegalStateException("payment " + id + " is " + status.wire() + ", not draft");
        }
        PaymentOperation operation = add(PaymentOperation.Type.AUTHORIZE, fixed.amount(), null, now);
        if (series != null && series.subscriptionId() != null) {
            operation = calls.replace(operation, operation.rekeyed(series.processorKey()));
        }
        status = PaymentStatus.PENDING;
        return operation;
    }

    /**
     * Records a capture of {@code captured} about to be sent: of an authorization {@link #notCapturable} accepts, at
     * most what {@link #remaining} (the service refuses the others first, in the client's words).
     */
    PaymentOperation beginCapture(long captured, Instant now) {
        Optional<String> refusal = notCapturable(now);
        if (refusal.isPresent() || captured < 1 || captured > remaining()) {
            throw new IllegalStateException("cannot capture " + captured + " of " + id + ": "
                    + refusal.orElse(remaining() + " remains"));
        }
        return add(PaymentOperation.Type.CAPTURE, captured, authorization().orElseThrow().processorKey(), now);
    }

    /**
     * Records the release of the whole remaining authorization, or of one still waiting for the customer (which stays
     * pending beside it until the void's answer); nothing else may be pending.
     */
    PaymentOperation beginVoid(Instant now) {
        Optional<PaymentOperation> waiting = awaitingCustomer();
        if (waiting.isEmpty() && remaining() == 0) {
            throw new IllegalStateException("nothing to void on " + id);
        }
        String key = waiting.or(this::authorization).orElseThrow().processorKey();
        return add(PaymentOperation.Type.VOID, remaining(), key, now);
    }

    private PaymentOperation add(PaymentOperation.Type type, long operationAmount, String authorizationKey, Instant now) {
        PaymentOperation operation = calls.add(type, operationAmount, authorizationKey, now);
        updatedAt = now;
        return operation;
    }

    /** The first call not settled yet (pending or unknown); see {@link ProcessorCalls#pending}. */
    Optional<PaymentOperation> pending() {
        return calls.pending();
    }

    /**
     * Records that the pending call went out and its outcome stayed unknown, even after asking: money may have
     * moved, and only the processor's status answer settles it.
     */
    void markUnknown(Instant now) {
        PaymentOperation operation = calls.requirePending();
        calls.replace(operation, operation.unknown());
        updatedAt = now;
    }

    /** The approved authorization, which captures and voids refer to. */
    Optional<PaymentOperation> authorization() {
        return calls.authorization();
    }

    /** The authorization waits for the customer (3-D Secure, a bank page, an app). */
    Optional<PaymentOperation> awaitingCustomer() {
        return calls.awaitingCustomer();
    }

    /** The processor key of the pending call is fenced: the call goes again under a fresh key, recorded first. */
    void reissuePending(Instant now) {
        calls.reissuePending();
        updatedAt = now;
    }

    long remaining() {
        return Math.max(0, authorizedAmount - paidAmount - voidedAmount);
    }

    /**
     * What a capture or a void of this payment may take now: what the authorization still holds, when
     * {@link #notCapturable} allows either; else 0. The API's captures and voids and the dashboard's forms ask this.
     */
    long capturable(Instant now) {
        return notCapturable(now).isPresent() ? 0 : remaining();
    }

    /** Why a capture or void of this payment is refused now (the live product's texts), or empty. */
    Optional<String> notCapturable(Instant now) {
        if (status != PaymentStatus.SUCCEEDED || fixed.captureMethod() != CaptureMethod.MANUAL
                || fixed.intent() != PaymentIntent.PAYMENT || pending().isPresent()) {
            return Optional.of("not in an authorised state");
        }
        if (authorizationExpiresAt != null && !now.isBefore(authorizationExpiresAt)) {
            return Optional.of("authorisation has expired");
        }
        return Optional.empty();
    }

    /**
     * Applies the processor's definite answer to the pending call; returns the transitions it caused (none while an
     * authorization waits for the customer). {@code retriesLeft}: whether the session lets the customer try again
     * after a decline ({@code payment.attempt_failed}) or not ({@code payment.failed}).
     */
    List<Transition> settle(ProcessorOutcome outcome, Instant now, boolean retriesLeft, Duration authorizationTtl) {
        PaymentOperation operation = calls.requirePending();
        List<Transition> transitions = new ArrayList<>();
        switch (outcome) {
            case ProcessorOutcome.ActionRequired required -> {
                calls.replace(operation, operation.waitingFor(required.action(), required.redirectUrl()));
                updatedAt = now;
                return transitions;
            }
            case ProcessorOutcome.Unknown unknown ->
                    throw new IllegalStateException("an unknown outcome must be resolved before it is recorded");
            case ProcessorOutcome.Accepted accepted ->
                    throw new IllegalStateException("only a refund is accepted for later; a payment's call is decided");
            case ProcessorOutcome.Approved approved -> {
                calls.replace(operation, operation.settled(CallStatus.SUCCEEDED, approved.amount(),
                        approved.reference(), null));
                switch (operation.type()) {
                    case AUTHORIZE -> {
                        status = PaymentStatus.SUCCEEDED;
                        lastPaymentError = null;
                        paymentMethodDetails = PaymentMethods.withFunding(paymentMethodDetails, approved.funding());
                        if (fixed.intent() == PaymentIntent.PAYMENT_METHOD_VERIFICATION) {
                            authorizedAmount = 0;
                        } else if (fixed.captureMethod() == CaptureMethod.AUTOMATIC) {
                            authorizedAmount = fixed.amount();
                            paidAmount = fixed.amount();
                        } else {
                            authorizedAmount = fixed.amount();
                            authorizationExpiresAt = now.plus(authorizationTtl);
                        }
                        transitions.add(Transition.SUCCEEDED);
                    }
                    case CAPTURE -> {
                        paidAmount += approved.amount();
                        transitions.add(Transition.CAPTURED);
                    }
                    case VOID -> {
                        if (status == PaymentStatus.SUCCEEDED) {
                            voidedAmount += remaining();
                            transitions.add(Transition.VOIDED);
                            if (paidAmount == 0) {
                                status = PaymentStatus.CANCELLED;
                                transitions.add(Transition.CANCELLED);
                            }
                        } else {
                            // Cancelled while it waited for the customer: the session expired or was cancelled.
                            calls.pendingAuthorization().ifPresent(a -> calls.replace(a,
                                    a.settled(CallStatus.FAILED, a.amount(), null, null)));
                            status = PaymentStatus.EXPIRED;
                            transitions.add(Transition.EXPIRED);
                        }
                    }
                }
            }
            case ProcessorOutcome.Declined declined -> {
                PaymentError error = new PaymentError(declined.errorCode(), declined.declineCode(), declined.message(),
                        Timestamps.format(now));
                calls.replace(operation, operation.settled(CallStatus.FAILED, operation.amount(), null,
                        error));
                if (operation.type() == PaymentOperation.Type.AUTHORIZE) {
                    status = PaymentStatus.FAILED;
                    lastPaymentError = error;
                    transitions.add(retriesLeft ? Transition.ATTEMPT_FAILED : Transition.FAILED);
                } else {
                    lastPaymentError = error;
                }
            }
        }
        updatedAt = now;
        version++;
        return transitions;
    }

    /** Ends a draft (nothing sent) when its session ends: {@code expired}. Only a draft ends this way. */
    List<Transition> expireDraft(Instant now) {
        if (status != PaymentStatus.DRAFT) {
            throw new IllegalStateException("payment " + id + " is " + status.wire() + ", not draft");
        }
        status = PaymentStatus.EXPIRED;
        updatedAt = now;
        version++;
        return List.of(Transition.EXPIRED);
    }

    /** Merges {@code changes} into the metadata (a capture's or void's {@code metadata}). */
    void mergeMetadata(Map<String, String> changes, Instant now) {
        if (changes == null || changes.isEmpty()) {
            return;
        }
        Map<String, String> merged = new HashMap<>(metadata == null ? Map.of() : metadata);
        merged.putAll(changes);
        metadata = merged;
        updatedAt = now;
    }

    void written() {
        revision++;
        storedVersion = version;
    }

    /**
     * How far this writer moved {@code version} since it read the payment. A write adds this to the stored version,
     * so a refund recorded meanwhile (which moves the version without taking the payment from its writer) stays
     * counted.
     */
    int versionMoved() {
        return version - storedVersion;
    }

    public String id() { return id; }
    public String merchantId() { return fixed.merchantId(); }
    public Mode mode() { return fixed.mode(); }
    PaymentIntent intent() { return fixed.intent(); }
    CaptureMethod captureMethod() { return fixed.captureMethod(); }
    public long amount() { return fixed.amount(); }
    public String currency() { return fixed.currency(); }
    String country() { return fixed.country(); }
    Map<String, Object> paymentMethodDetails() { return paymentMethodDetails; }
    String cardFingerprint() { return attempt.cardFingerprint(); }
    String paymentMethodId() { return paymentMethodId; }

    /** Records the method this payment saved, in the transaction that records its success. */
    Payment withPaymentMethod(String id) {
        this.paymentMethodId = id;
        return this;
    }

    /**
     * The first payment of a series becomes the first charge of the mandate its success created, on {@code date} in
     * the mandate's zone, in that transaction: it counts in its period's limit (decisions §8).
     */
    void firstChargeOf(String mandateId, LocalDate date) {
        if (series != null) {
            throw new IllegalStateException(id + " is already a charge of " + series.mandateId());
        }
        series = SeriesCharge.first(mandateId, date);
    }

    /** Whether a declined subscription charge will be tried again (decided with the decline, in its transaction). */
    void retried(ChargeRetry decided) {
        retry = decided;
    }

    /** A charge of a kept card made without the customer (the merchant's {@code next_in_series}, a subscription's). */
    boolean offSession() {
        return series != null && series.offSession();
    }

    SeriesCharge series() { return series; }
    ChargeRetry retry() { return retry; }
    String externalReference() { return attempt.externalReference(); }
    Map<String, String> metadata() { return metadata; }
    public String paymentSessionId() { return attempt.paymentSessionId(); }
    String customerId() { return fixed.customerId(); }
    public String obligationId() { return fixed.obligationId(); }
    Instant createdAt() { return createdAt; }
    public PaymentStatus status() { return status; }
    long authorizedAmount() { return authorizedAmount; }
    Instant authorizationExpiresAt() { return authorizationExpiresAt; }
    public long paidAmount() { return paidAmount; }
    long voidedAmount() { return voidedAmount; }
    long refundedAmount() { return refundedAmount; }
    PaymentError lastPaymentError() { return lastPaymentError; }
    int version() { return version; }
    List<PaymentOperation> operations() { return calls.list(); }
    Instant updatedAt() { return updatedAt; }
    int revision() { return revision; }
}
