package io.tender.refund;

import io.tender.api.Ids;
import io.tender.auth.Mode;
import io.tender.payment.CapturedPayments.Captured;
import io.tender.payment.PaymentStatus;
import io.tender.processor.ProcessorOutcome;
import io.tender.settlement.OperationKeys;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A refund (decisions §10): captured money of one payment given back through one processor call. It is recorded as
 * a {@code draft} with its processor key before the call, and shown only once the processor has accepted it:
 * {@code pending} (accepted for later, or sent with an unknown outcome that the recovery job resolves by asking),
 * then {@code succeeded} or {@code failed}. Where the call stands is kept apart in {@link Call}, so that a row says
 * whether money may have moved. Each transition returns the events it causes.
 */
final class Refund {

    static final String PREFIX = "rfd_";

    enum Status {
        DRAFT, PENDING, SUCCEEDED, FAILED;

        String wire() {
            return name().toLowerCase();
        }

        static Status fromWire(String wire) {
            return valueOf(wire.toUpperCase());
        }
    }

    /** Where the processor call stands, as the settlement kernel keeps it. */
    enum Call {
        /** Recorded, being sent (its writer holds the lease). */
        PENDING,
        /** Sent, and neither its answer nor a status query said what became of it: money may have moved. */
        UNKNOWN,
        /** The processor took it and finishes it later; its status tells how it ended. */
        ACCEPTED,
        SUCCEEDED,
        FAILED;

        boolean open() {
            return this == PENDING || this == UNKNOWN || this == ACCEPTED;
        }

        String wire() {
            return name().toLowerCase();
        }

        static Call fromWire(String wire) {
            return valueOf(wire.toUpperCase());
        }
    }

    /** A change a client sees, named as the event it emits ({@code refund.<name>}). */
    enum Transition {
        CREATED, SUCCEEDED, FAILED;

        String eventType() {
            return "refund." + name().toLowerCase();
        }
    }

    /** What a refund is, fixed when it is recorded. */
    record Terms(String id, String merchantId, Mode mode, String paymentId, long amount, String currency,
                 RefundReason reason, Map<String, String> metadata, String authorizationKey, Instant createdAt) {
    }

    private final Terms terms;
    private Status status;
    private String failureReason;
    private Call call;
    private String processorKey;
    private Map<String, Object> processorReference;
    private Instant updatedAt;
    private int revision;

    private Refund(Terms terms, Status status, String failureReason, Call call, String processorKey,
                   Map<String, Object> processorReference, Instant updatedAt, int revision) {
        this.terms = terms;
        this.status = status;
        this.failureReason = failureReason;
        this.call = call;
        this.processorKey = processorKey;
        this.processorReference = processorReference;
        this.updatedAt = updatedAt;
        this.revision = revision;
    }

    /**
     * What of {@code payment}'s captured money refunds may still take (decisions §10): its {@code paid_amount} less
     * {@code committed}, what its refunds that did not fail take (those in flight included); nothing when
     * {@link #refusal} refuses every refund of it. The API's refund and the dashboard's refund form both ask this.
     */
    static long refundable(Captured payment, long committed) {
        return refusal(payment).isPresent() ? 0 : Math.max(0, payment.paidAmount() - committed);
    }

    /** Why no refund of the payment can be made at all, or empty: only captured money taken by a processor. */
    static Optional<RefundRejection> refusal(Captured payment) {
        if (payment.status() != PaymentStatus.SUCCEEDED) {
            return Optional.of(new RefundRejection.NotRefundable(payment.status().wire()));
        }
        if (payment.paidAmount() == 0) {
            return Optional.of(new RefundRejection.NothingCaptured());
        }
        if (payment.authorizationKey() == null) {
            return Optional.of(new RefundRejection.NoProcessorPayment());
        }
        return Optional.empty();
    }

    /**
     * A refund of {@code asked} (null: all that is {@link #refundable}) of {@code payment}'s captured money, about to
     * be sent under its own key ({@code <id>:refund}), or the rule that refuses it. {@code committed}: what the
     * payment's refunds that did not fail take, read under the payment's lock.
     */
    static Refund draft(String id, Captured payment, long committed, Long asked, RefundReason reason,
                        Map<String, String> metadata, Instant now) {
        refusal(payment).ifPresent(r -> {
            throw r.thrown();
        });
        long refundable = refundable(payment, committed);
        long amount = asked == null ? refundable : asked;
        if (amount > refundable || amount == 0) {
            throw new RefundRejection.RefundOverRefundable(amount, refundable).thrown();
        }
        Terms terms = new Terms(id, payment.merchantId(), payment.mode(), payment.id(), amount, payment.currency(),
                reason, metadata, payment.authorizationKey(), now);
        return new Refund(terms, Status.DRAFT, null, Call.PENDING, OperationKeys.of(id, "refund", 0), null, now, 0);
    }

    /** A refund as its row holds it. */
    static Refund restored(Terms terms, Status status, String failureReason, Call call, String processorKey,
                           Map<String, Object> processorReference, Instant updatedAt, int revision) {
        return new Refund(terms, status, failureReason, call, processorKey, processorReference, updatedAt, revision);
    }

    static String newId() {
        return Ids.newId(PREFIX);
    }

    /**
     * Applies the processor's definite answer: approved → {@code succeeded}; accepted for later → {@code pending};
     * declined → {@code failed} with its reason. The first change a client sees is also {@code refund.created}.
     */
    List<Transition> settle(ProcessorOutcome outcome, Instant now) {
        if (!call.open()) {
            throw new IllegalStateException("refund " + id() + " is settled already");
        }
        List<Transition> transitions = new ArrayList<>();
        if (status == Status.DRAFT) {
            transitions.add(Transition.CREATED);
        }
        switch (outcome) {
            case ProcessorOutcome.Approved approved -> {
                call = Call.SUCCEEDED;
                status = Status.SUCCEEDED;
                // The processor's refund id from its acceptance is kept when the status answer carries none.
                if (approved.reference() != null && !approved.reference().isEmpty()) {
                    processorReference = approved.reference();
                }
                transitions.add(Transition.SUCCEEDED);
            }
            case ProcessorOutcome.Accepted accepted -> {
                call = Call.ACCEPTED;
                status = Status.PENDING;
                if (accepted.reference() != null && !accepted.reference().isEmpty()) {
                    processorReference = accepted.reference();
                }
            }
            case ProcessorOutcome.Declined declined -> {
                call = Call.FAILED;
                status = Status.FAILED;
                failureReason = failureReason(declined);
                transitions.add(Transition.FAILED);
            }
            case ProcessorOutcome.Unknown unknown ->
                    throw new IllegalStateException("an unknown outcome must be resolved before it is recorded");
            case ProcessorOutcome.ActionRequired required ->
                    throw new IllegalStateException("a refund never waits for the customer");
        }
        updatedAt = now;
        return transitions;
    }

    /**
     * Records that the call went out and its outcome stayed unknown, even after asking: the refund is shown
     * {@code pending} (it may have moved money) while the recovery job asks the processor, never resending it.
     */
    List<Transition> markUnknown(Instant now) {
        if (!call.open()) {
            throw new IllegalStateException("refund " + id() + " is settled already");
        }
        List<Transition> transitions = status == Status.DRAFT ? List.of(Transition.CREATED) : List.of();
        call = Call.UNKNOWN;
        status = Status.PENDING;
        updatedAt = now;
        return transitions;
    }

    /** The processor never received the call under its key, which is fenced now: it goes again under a fresh one. */
    void reissue(Instant now) {
        processorKey = OperationKeys.reissued(processorKey, 1);
        updatedAt = now;
    }

    /**
     * {@code expired_or_closed_account} as the processor says it; a refund that never reached it, or that it failed
     * without saying why, is {@code unknown}.
     */
    private static String failureReason(ProcessorOutcome.Declined declined) {
        if ("expired_or_closed_account".equals(declined.declineCode())) {
            return "expired_or_closed_account";
        }
        return declined.neverReceived() || "processing_error".equals(declined.errorCode()) ? "unknown" : "declined";
    }

    void written() {
        revision++;
    }

    Terms terms() { return terms; }
    String id() { return terms.id(); }
    String merchantId() { return terms.merchantId(); }
    Mode mode() { return terms.mode(); }
    String paymentId() { return terms.paymentId(); }
    long amount() { return terms.amount(); }
    String currency() { return terms.currency(); }
    Status status() { return status; }
    String failureReason() { return failureReason; }
    Call call() { return call; }
    String processorKey() { return processorKey; }
    Map<String, Object> processorReference() { return processorReference; }
    Instant updatedAt() { return updatedAt; }
    int revision() { return revision; }
}
