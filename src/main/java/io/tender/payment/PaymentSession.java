package io.tender.payment;

import io.tender.auth.Mode;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The payment session aggregate (decisions §6): what the merchant asked for, and where the customer's attempts
 * (payments) stand. {@code status}: {@code active} until it ends {@code completed}, {@code expired} or
 * {@code cancelled}; {@code payment_outcome}: {@code not_started} → {@code pending} → {@code paid} | {@code reserved} |
 * {@code payment_method_verified} | {@code unpaid}. At most {@link #MAX_ATTEMPTS} attempts, one in flight at a time.
 */
public final class PaymentSession {

    static final int MAX_ATTEMPTS = 5;

    /** A state change, named as the event it emits ({@code payment_session.<name>}). */
    enum Transition {
        CREATED, UPDATED, COMPLETED, EXPIRED;

        String eventType() {
            return "payment_session." + name().toLowerCase();
        }
    }

    enum Status {
        ACTIVE, COMPLETED, EXPIRED, CANCELLED;

        String wire() {
            return name().toLowerCase();
        }
    }

    /**
     * What a session is, fixed when it is opened: for whom, how much, for which bill or account ({@code obligationId},
     * or null) and customer (or null), where the customer goes back to ({@code returnUrl}, or null).
     */
    record Terms(String id, String merchantId, Mode mode, String checkoutSessionId, String type, long amount,
                 String currency, String country, String customerId, String obligationId, String returnUrl,
                 String externalReference, Map<String, String> metadata, Instant createdAt) {
    }

    /**
     * Where a stored session stands, as its row holds it: {@code paymentId} and {@code lastPaymentError} are null
     * before the first attempt and after a success.
     */
    record State(SessionOptions options, Status status, String paymentOutcome, String paymentId,
                 PaymentError lastPaymentError, int attempts, boolean waitingForMerchant, int version,
                 Instant expiresAt, Instant updatedAt) {
    }

    private final Terms fixed;
    private Instant expiresAt;
    private SessionOptions options;
    private Status status;
    private String paymentOutcome;
    private String paymentId;
    private PaymentError lastPaymentError;
    private int attempts;
    private boolean waitingForMerchant;
    private int version;
    private Instant updatedAt;
    /** The {@code pm_} its attempt saved, or null. */
    private String paymentMethodId;
    /** The payment request or page visit it was opened for, or null (the merchant's own session). */
    private SessionOrigin.Ref origin;
    /** {@code first_in_series}: the customer's acceptance of the terms, recorded when they started the attempt. */
    private Acceptance mandateAcceptance;
    /** The mandate its success created ({@code first_in_series}) or it charged ({@code next_in_series}), or null. */
    private String mandateId;
    /** The subscription its success created, or null. */
    private String subscriptionId;

    private PaymentSession(Terms fixed, State state) {
        this.fixed = fixed;
        this.options = state.options();
        this.status = state.status();
        this.paymentOutcome = state.paymentOutcome();
        this.paymentId = state.paymentId();
        this.lastPaymentError = state.lastPaymentError();
        this.attempts = state.attempts();
        this.waitingForMerchant = state.waitingForMerchant();
        this.version = state.version();
        this.expiresAt = state.expiresAt();
        this.updatedAt = state.updatedAt();
    }

    /** A session just opened: active, no attempt yet, at version 1, open until {@code expiresAt}. */
    static PaymentSession opened(Terms terms, SessionOptions options, Instant expiresAt) {
        return new PaymentSession(terms, new State(options, Status.ACTIVE, "not_started", null, null, 0, false, 1,
                expiresAt, terms.createdAt()));
    }

    /** A session as its row holds it. */
    static PaymentSession restored(Terms terms, State state) {
        return new PaymentSession(terms, state);
    }

    /** Why no attempt can start now, or null. */
    String attemptRefusal(Instant now, boolean attemptInFlight) {
        if (status != Status.ACTIVE) {
            return "The payment session is " + status.wire() + ".";
        }
        if (!now.isBefore(expiresAt)) {
            return "The payment session has expired.";
        }
        if (attemptInFlight) {
            return "An attempt is still in progress.";
        }
        if (waitingForMerchant) {
            return "The merchant has not chosen the next payment method yet.";
        }
        if (attempts >= MAX_ATTEMPTS) {
            return "The payment session allows at most " + MAX_ATTEMPTS + " attempts.";
        }
        return null;
    }

    static final String ONE_TIME = "one_time";
    static final String FIRST_IN_SERIES = "first_in_series";
    static final String NEXT_IN_SERIES = "next_in_series";

    /** The customer is present and agrees, by paying, to later charges without them (decisions §8). */
    boolean firstInSeries() {
        return FIRST_IN_SERIES.equals(fixed.type());
    }

    /** A charge of a mandate without the customer: one attempt, made at once, with no checkout. */
    boolean nextInSeries() {
        return NEXT_IN_SERIES.equals(fixed.type());
    }

    /** The customer starts paying a first_in_series session: their acceptance of its terms, as the mandate keeps it. */
    void accepted(Acceptance acceptance) {
        mandateAcceptance = acceptance;
    }

    /** The acceptance as read back from its row. */
    PaymentSession restoreAcceptance(Acceptance acceptance) {
        this.mandateAcceptance = acceptance;
        return this;
    }

    /** The mandate (and subscription) its success created, or the mandate it charges. */
    PaymentSession ofMandate(String mandate, String subscription) {
        this.mandateId = mandate;
        this.subscriptionId = subscription;
        return this;
    }

    Transition attemptStarted(String newPaymentId, Instant now) {
        attempts++;
        paymentId = newPaymentId;
        paymentOutcome = "pending";
        return touch(now, Transition.UPDATED);
    }

    /** The latest attempt reached a final state; returns the session's transition. */
    Transition attemptEnded(Payment payment, Instant now) {
        switch (payment.status()) {
            case SUCCEEDED -> {
                status = Status.COMPLETED;
                lastPaymentError = null;
                paymentOutcome = payment.intent() == PaymentIntent.PAYMENT_METHOD_VERIFICATION ? "payment_method_verified"
                        : payment.captureMethod() == CaptureMethod.MANUAL ? "reserved" : "paid";
                return touch(now, Transition.COMPLETED);
            }
            case FAILED -> {
                lastPaymentError = payment.lastPaymentError();
                if (nextInSeries()) {
                    // Nobody is on a page to try again: the merchant opens another session.
                    status = Status.CANCELLED;
                    paymentOutcome = "unpaid";
                } else if (options.merchantSelection()) {
                    waitingForMerchant = true;
                }
                return touch(now, Transition.UPDATED);
            }
            default -> {
                return touch(now, Transition.UPDATED);
            }
        }
    }

    /** Whether the customer may try again after a declined attempt (never for a charge without them). */
    boolean retriesLeft() {
        return !nextInSeries() && attempts < MAX_ATTEMPTS;
    }

    Transition cancel(Instant now) {
        status = Status.CANCELLED;
        paymentOutcome = "unpaid";
        return touch(now, Transition.UPDATED);
    }

    Transition expire(Instant now) {
        status = Status.EXPIRED;
        paymentOutcome = "unpaid";
        return touch(now, Transition.EXPIRED);
    }

    /** A new expiry for an active session (its payment request's {@code expires_at} changed). */
    Transition reschedule(Instant newExpiry, Instant now) {
        expiresAt = newExpiry;
        return touch(now, Transition.UPDATED);
    }

    /** The merchant chose the next attempt's method ({@code payment_method_selection: merchant}). */
    Transition completeSelection(String selected, List<String> visible, Instant now) {
        options = options.withSelection(selected, visible);
        waitingForMerchant = false;
        return touch(now, Transition.UPDATED);
    }

    private Transition touch(Instant now, Transition transition) {
        version++;
        updatedAt = now;
        return transition;
    }

    /** {@code payment_status}, deprecated and still filled (spec changelog 2026-05-12). */
    String paymentStatus() {
        return switch (paymentOutcome) {
            case "paid", "reserved" -> "paid";
            case "unpaid" -> "unpaid";
            default -> "pending";
        };
    }

    public String id() { return fixed.id(); }
    String merchantId() { return fixed.merchantId(); }
    Mode mode() { return fixed.mode(); }
    String checkoutSessionId() { return fixed.checkoutSessionId(); }
    String type() { return fixed.type(); }
    long amount() { return fixed.amount(); }
    String currency() { return fixed.currency(); }
    String country() { return fixed.country(); }
    String customerId() { return fixed.customerId(); }
    String obligationId() { return fixed.obligationId(); }
    String returnUrl() { return fixed.returnUrl(); }
    String externalReference() { return fixed.externalReference(); }
    Map<String, String> metadata() { return fixed.metadata(); }
    Instant expiresAt() { return expiresAt; }
    Instant createdAt() { return fixed.createdAt(); }
    SessionOptions options() { return options; }
    Status status() { return status; }
    String paymentOutcome() { return paymentOutcome; }
    String paymentId() { return paymentId; }
    String paymentMethodId() { return paymentMethodId; }

    /** Records the method its attempt saved (or, read back from its row, had saved). */
    PaymentSession withPaymentMethod(String id) {
        this.paymentMethodId = id;
        return this;
    }
    PaymentSession withOrigin(SessionOrigin.Ref origin) {
        this.origin = origin;
        return this;
    }

    SessionOrigin.Ref origin() { return origin; }
    Acceptance mandateAcceptance() { return mandateAcceptance; }
    String mandateId() { return mandateId; }
    String subscriptionId() { return subscriptionId; }
    PaymentError lastPaymentError() { return lastPaymentError; }
    int attempts() { return attempts; }
    boolean waitingForMerchant() { return waitingForMerchant; }
    int version() { return version; }
    Instant updatedAt() { return updatedAt; }
}
