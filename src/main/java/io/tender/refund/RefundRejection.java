package io.tender.refund;

import io.tender.api.Rejection;

/** Why a refund is refused (decisions §10), with what was compared; {@link RefundProblems} words it. */
sealed interface RefundRejection extends Rejection {

    record RefundNotFound() implements RefundRejection {
    }

    /** A refund of a payment that is {@code status} (its wire name): only captured money is refunded. */
    record NotRefundable(String status) implements RefundRejection {
    }

    /** A payment billing's test helper recorded without a processor call: no processor holds its money. */
    record NoProcessorPayment() implements RefundRejection {
    }

    /** A succeeded payment with nothing captured: an open manual authorization is voided, not refunded. */
    record NothingCaptured() implements RefundRejection {
    }

    /** A refund of {@code amount} with only {@code refundable} left of what was captured. */
    record RefundOverRefundable(long amount, long refundable) implements RefundRejection {
    }
}
