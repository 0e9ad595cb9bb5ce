package io.tender.paymentpage;

import io.tender.api.Rejection;

/** Why a payment page request is refused; {@link PaymentPageProblems} words it. */
sealed interface PaymentPageRejection extends Rejection {

    /** A new {@code expires_at} is for an active page only; this one is {@code status}. */
    record ExpiryFixed(String status) implements PaymentPageRejection {
    }
}
