package io.tender.paymentrequest;

import io.tender.api.Metadata;
import io.tender.auth.Mode;
import io.tender.payment.PaymentError;
import io.tender.payment.SessionOrigin;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The payment request aggregate (decisions §7). {@code active} until its session ends: {@code paid} (once: the
 * session completes with the payment), {@code expired}, {@code cancelled} (the merchant's DELETE), or, for a push the
 * customer's bank declined, {@code failed}. Only an active request changes; every change bumps {@code version}.
 */
final class PaymentRequest {

    enum Type {
        LINK, PUSH;

        String wire() {
            return name().toLowerCase();
        }
    }

    enum Status {
        ACTIVE, PAID, EXPIRED, CANCELLED, FAILED;

        String wire() {
            return name().toLowerCase();
        }

        static Status fromWire(String value) {
            return valueOf(value.toUpperCase());
        }
    }

    /** A change, named as the event it sends ({@code payment_request.<name>}). */
    enum Transition {
        CREATED, UPDATED, PAID, CANCELLED, EXPIRED, FAILED;

        String eventType() {
            return "payment_request." + name().toLowerCase();
        }
    }

    /** Whom the request asks: billing's customer ({@code id}) or details given inline; any part may be null. */
    record Customer(String id, String name, String email, String phone) {
    }

    /** What the merchant asked the request to notify. */
    record Notify(boolean email, boolean sms) {
        static final Notify NONE = new Notify(false, false);
    }

    /** The bill or account the payment is applied to, as the merchant named it, and its obligation. */
    record Target(String bill, String account, String obligationId) {
    }

    private final String id;
    private final String merchantId;
    private final Mode mode;
    private final Type type;
    private final long amount;
    private final String currency;
    private final String paymentSessionId;
    private final String checkoutSessionId;
    private final Customer customer;
    private final Target target;
    private final List<String> visiblePaymentMethods;
    private final String pushPhoneNumber;
    private final Notify notify;
    private final Instant createdAt;

    private Status status;
    private String description;
    private String externalReference;
    private Instant expiresAt;
    private String paymentId;
    private PaymentError lastPaymentError;
    private Map<String, String> metadata;
    private int version;
    /** What the payment's succeeded refunds gave back, as its row was read; 0 before any (decisions §10). */
    private long refundedAmount;
    private Instant updatedAt;

    PaymentRequest(String id, String merchantId, Mode mode, Type type, Status status, long amount, String currency,
                   String description, String externalReference, Instant expiresAt, String paymentSessionId,
                   String checkoutSessionId, String paymentId, PaymentError lastPaymentError, Customer customer,
                   Target target, List<String> visiblePaymentMethods, String pushPhoneNumber, Notify notify,
                   Map<String, String> metadata, int version, Instant createdAt, Instant updatedAt) {
        this.id = id;
        this.merchantId = merchantId;
        this.mode = mode;
        this.type = type;
        this.status = status;
        this.amount = amount;
        this.currency = currency;
        this.description = description;
        this.externalReference = externalReference;
        this.expiresAt = expiresAt;
        this.paymentSessionId = paymentSessionId;
        this.checkoutSessionId = checkoutSessionId;
        this.paymentId = paymentId;
        this.lastPaymentError = lastPaymentError;
        this.customer = customer;
        this.target = target;
        this.visiblePaymentMethods = visiblePaymentMethods;
        this.pushPhoneNumber = pushPhoneNumber;
        this.notify = notify;
        this.metadata = metadata;
        this.version = version;
        this.createdAt = createdAt;
        this.updatedAt = updatedAt;
    }

    /**
     * How the request follows its session's move (decisions §7): the session completed → paid with its payment;
     * expired → expired; cancelled → cancelled; a push whose attempt was declined → failed (the caller then ends the
     * session, so that the link cannot be paid later). Empty when the request does not change: it has ended already
     * (a failed request's session being cancelled, a move told twice), or a link's declined attempt, which the
     * customer may retry.
     */
    Optional<Transition> follow(SessionOrigin.Move move, Instant now) {
        if (status != Status.ACTIVE) {
            return Optional.empty();
        }
        var session = move.session();
        var ended = move.endedAttempt();
        return switch (session.status()) {
            case "completed" -> {
                status = Status.PAID;
                paymentId = session.paymentId();
                lastPaymentError = null;
                yield Optional.of(touch(now, Transition.PAID));
            }
            case "expired" -> {
                status = Status.EXPIRED;
                yield Optional.of(touch(now, Transition.EXPIRED));
            }
            case "cancelled" -> {
                status = Status.CANCELLED;
                yield Optional.of(touch(now, Transition.CANCELLED));
            }
            default -> {
                if (type == Type.PUSH && ended != null && "failed".equals(ended.status())) {
                    yield Optional.of(fail(ended.lastPaymentError(), now));
                }
                yield Optional.empty();
            }
        };
    }

    /** A push that could not be sent or was declined: the request ends {@code failed} with why. */
    Transition fail(PaymentError error, Instant now) {
        status = Status.FAILED;
        lastPaymentError = error;
        return touch(now, Transition.FAILED);
    }

    /** Why a change (PATCH, DELETE) cannot be made now. */
    sealed interface Refusal {
        /** The request has ended. */
        record NotActive(Status status) implements Refusal {
        }

        /** The client read another version ({@code If-Match}). */
        record StaleVersion(int current, int read) implements Refusal {
        }
    }

    /** Why the request cannot be changed now: it has ended, or the client acts on another version. */
    Optional<Refusal> refusal(Integer ifMatch) {
        if (status != Status.ACTIVE) {
            return Optional.of(new Refusal.NotActive(status));
        }
        if (ifMatch != null && ifMatch != version) {
            return Optional.of(new Refusal.StaleVersion(version, ifMatch));
        }
        return Optional.empty();
    }

    /** Applies a PATCH; empty when it changes nothing. */
    Optional<Transition> patch(PaymentRequestPatch patch, Instant now) {
        boolean changed = false;
        if (patch.description() != null && !patch.description().equals(Optional.ofNullable(description))) {
            description = patch.description().orElse(null);
            changed = true;
        }
        if (patch.externalReference() != null && !patch.externalReference().equals(Optional.ofNullable(externalReference))) {
            externalReference = patch.externalReference().orElse(null);
            changed = true;
        }
        if (patch.expiresAt() != null && !patch.expiresAt().equals(expiresAt)) {
            expiresAt = patch.expiresAt();
            changed = true;
        }
        if (patch.metadata() != null) {
            Map<String, String> merged = Metadata.merge(metadata, patch.metadata());
            if (!java.util.Objects.equals(merged, metadata)) {
                metadata = merged;
                changed = true;
            }
        }
        return changed ? Optional.of(touch(now, Transition.UPDATED)) : Optional.empty();
    }

    private Transition touch(Instant now, Transition transition) {
        version++;
        updatedAt = now;
        return transition;
    }

    String id() { return id; }
    String merchantId() { return merchantId; }
    Mode mode() { return mode; }
    Type type() { return type; }
    Status status() { return status; }
    long amount() { return amount; }
    String currency() { return currency; }
    String description() { return description; }
    String externalReference() { return externalReference; }
    Instant expiresAt() { return expiresAt; }
    String paymentSessionId() { return paymentSessionId; }
    String checkoutSessionId() { return checkoutSessionId; }
    String paymentId() { return paymentId; }
    PaymentError lastPaymentError() { return lastPaymentError; }
    Customer customer() { return customer; }
    Target target() { return target; }
    List<String> visiblePaymentMethods() { return visiblePaymentMethods; }
    String pushPhoneNumber() { return pushPhoneNumber; }
    Notify notifyChannels() { return notify; }
    Map<String, String> metadata() { return metadata; }
    int version() { return version; }
    long refundedAmount() { return refundedAmount; }

    /** The request as read, with its payment's {@code refunded_amount}. */
    PaymentRequest withRefunded(long amount) {
        this.refundedAmount = amount;
        return this;
    }
    Instant createdAt() { return createdAt; }
    Instant updatedAt() { return updatedAt; }
}
