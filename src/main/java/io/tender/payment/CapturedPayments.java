package io.tender.payment;

import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.database.Transactions;
import org.springframework.stereotype.Service;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Payments as their refunds (the {@code refund} module, decisions §10) see them: the captured money and the
 * authorization a refund goes back through. A refund is recorded under the payment's lock ({@link #lock}), which moves
 * the payment's {@code version}; its success adds to the payment's {@code refunded_amount} ({@link #refunded}). Neither
 * takes the payment from a writer holding it (a capture in flight).
 */
@Service
public record CapturedPayments(Payments payments) {

    /**
     * A payment as a refund reads it.
     *
     * @param authorizationKey the processor key of its approved authorization, which a refund refers to; null for a
     *                         payment never taken through a processor (billing's test helper)
     * @param version          what {@code If-Match} is compared with
     */
    public record Captured(String id, String merchantId, Mode mode, String currency, PaymentStatus status,
                           long paidAmount, String authorizationKey, int version) {
    }

    /**
     * One processor call of a payment: {@code type} {@code authorize}, {@code capture} or {@code void}; {@code status}
     * {@code pending}, {@code unknown} (sent, no definite answer yet), {@code succeeded} or {@code failed} with the
     * processor's {@code error}.
     */
    public record Call(Instant at, String type, String status, long amount, PaymentError error) {
    }

    /** The payment as it is now, unlocked (a page showing what may be refunded); empty for an unknown id. */
    public Optional<Captured> find(Caller caller, String paymentId) {
        return payments.find(caller, paymentId).map(CapturedPayments::captured);
    }

    /** The payment's processor calls, oldest first; empty for an unknown id (another merchant's, the other mode's). */
    public List<Call> calls(Caller caller, String paymentId) {
        return payments.find(caller, paymentId).map(p -> p.operations().stream().map(op -> new Call(op.createdAt(),
                op.type().wire(), op.status().name().toLowerCase(), op.amount(), op.error())).toList())
                .orElse(List.of());
    }

    /**
     * The payment, held until the caller's transaction ends: the refunds of one payment are checked against its
     * {@code paid_amount} one at a time. 404 {@code payment_not_found} for an unknown id; 409 when {@code ifMatch}
     * (null: none) is not its version.
     */
    public Captured lock(Caller caller, String paymentId, Integer ifMatch) {
        Transactions.mandatory("locking a payment for its refund");
        Payment payment = payments.lock(caller, paymentId);
        if (ifMatch != null && ifMatch != payment.version()) {
            throw new PaymentRejection.VersionMismatch(payment.version(), ifMatch).thrown();
        }
        return captured(payment);
    }

    /**
     * A refund of the payment was recorded, in the transaction holding its lock: its {@code version} moves, so that
     * an {@code If-Match} of the version read before cannot refund it again under another Idempotency-Key.
     */
    public void refundRecorded(String paymentId) {
        Transactions.mandatory("recording a refund on its payment");
        payments.refundRecorded(paymentId);
    }

    /** A refund of {@code amount} succeeded, in the transaction recording it: {@code refunded_amount} adds it. */
    public void refunded(String paymentId, long amount) {
        Transactions.mandatory("adding a refund to its payment");
        payments.addRefunded(paymentId, amount);
    }

    private static Captured captured(Payment p) {
        return new Captured(p.id(), p.merchantId(), p.mode(), p.currency(), p.status(), p.paidAmount(),
                p.authorization().map(PaymentOperation::processorKey).orElse(null), p.version());
    }
}
