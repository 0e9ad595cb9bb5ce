package io.tender.paymentrequest;

import io.tender.api.Rejection;

/** Why a payment request is refused, with what was compared; {@link PaymentRequestProblems} words it. */
sealed interface PaymentRequestRejection extends Rejection {

    /** A new {@code expires_at} outside the lifetime a request of {@code type} allows. */
    record ExpiryOutsideLifetime(NewPaymentRequest.Lifetime lifetime) implements PaymentRequestRejection {
    }

    /** The request cannot be changed: not active, or not at the version asked. */
    record Refused(PaymentRequest.Refusal refusal) implements PaymentRequestRejection {
    }

    /** Channels asked for without the customer's address for them: {@code email}, {@code sms}. */
    record NoWayToReach(boolean email, boolean sms) implements PaymentRequestRejection {
    }

    /** notify.email, and this service has no mail server. */
    record EmailUnavailable() implements PaymentRequestRejection {
    }

    /** notify.sms, and this service has no SMS gateway in {@code mode} (its wire name). */
    record SmsUnavailable(String mode) implements PaymentRequestRejection {
    }
}
