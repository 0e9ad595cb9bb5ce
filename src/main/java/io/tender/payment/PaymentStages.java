package io.tender.payment;

import io.tender.apiversion.PaymentProgress;
import io.tender.settlement.CallStatus;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * What a stored payment knows of its attempt in flight, for the API versions that told the stages of {@code pending}
 * apart (decisions §15): read from its open authorization, never stored as a status.
 */
@Component
class PaymentStages implements PaymentProgress {

    private final Payments payments;

    PaymentStages(Payments payments) {
        this.payments = payments;
    }

    @Override
    public Optional<Stage> stageOf(String paymentId) {
        return payments.find(paymentId).flatMap(PaymentStages::stage);
    }

    /**
     * A pending payment waiting for the customer (3-D Secure, a bank's page, an app) is {@code pending_action}; one
     * whose call went out without a definite answer {@code processing}; one whose call is recorded and not answered
     * yet {@code initiating}. Not pending: none.
     */
    static Optional<Stage> stage(Payment payment) {
        if (payment.status() != PaymentStatus.PENDING) {
            return Optional.empty();
        }
        if (payment.awaitingCustomer().isPresent()) {
            return Optional.of(Stage.PENDING_ACTION);
        }
        return Optional.of(payment.pending()
                .map(call -> call.status() == CallStatus.PENDING ? Stage.INITIATING : Stage.PROCESSING)
                .orElse(Stage.PROCESSING));
    }
}
