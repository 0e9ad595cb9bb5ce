package io.tender.payment;

import io.tender.api.Rejection;

/** Why a payment, session or saved method request is refused, with what was compared; {@link PaymentProblems} words it. */
sealed interface PaymentRejection extends Rejection {

    record SessionNotFound() implements PaymentRejection {
    }

    /** Unknown ids, and other merchants' and the other mode's payments. */
    record PaymentNotFound() implements PaymentRejection {
    }

    /** The customer of a {@code first_in_series} session does not exist (a mandate is a customer's). */
    record CustomerNotFound(String customerId) implements PaymentRejection {
    }

    record MethodNotFound() implements PaymentRejection {
    }

    /** The session is {@code status} (its wire name), not active. */
    record SessionNotActive(String status) implements PaymentRejection {
    }

    /** An attempt is pending: the session cannot be cancelled yet. */
    record AttemptInFlight() implements PaymentRejection {
    }

    record NotWaitingForSelection() implements PaymentRejection {
    }

    /**
     * The customer's form was issued before the session's latest attempt started (a second post of one form, a
     * resubmitted old page): it starts nothing.
     */
    record StaleForm() implements PaymentRejection {
    }

    /** The session takes no attempt now, for {@code reason} ({@link PaymentSession#attemptRefusal}). */
    record AttemptRefused(String reason) implements PaymentRejection {
    }

    /** The payment cannot be captured or voided, for {@code reason} ({@link Payment#notCapturable}). */
    record NotCapturable(String reason) implements PaymentRejection {
    }

    record NothingToCapture() implements PaymentRejection {
    }

    /** A capture of {@code amount} with only {@code remaining} authorised. */
    record CaptureOverRemaining(long amount, long remaining) implements PaymentRejection {
    }

    record NothingToVoid() implements PaymentRejection {
    }

    /** If-Match asked for version {@code asked}; the payment is at {@code current}. */
    record VersionMismatch(int current, int asked) implements PaymentRejection {
    }

    /** Another writer moved the payment while the request ran. */
    record ChangedConcurrently() implements PaymentRejection {
    }

    /** The processor's answer stayed unknown; the recovery job resolves payment {@code paymentId}. */
    record NoDefiniteAnswer(String paymentId) implements PaymentRejection {
    }

    /** The processor refused the {@code operation} (its wire type); {@code message} is its error, or null. */
    record ProcessorRefused(String operation, String message) implements PaymentRejection {
    }

    /** A push to a phone number not of the session's {@code country}. */
    record PushPhoneNotOfCountry(String country) implements PaymentRejection {
    }

    /** A push at a session that does not offer capitec_pay. */
    record PushNotOffered() implements PaymentRejection {
    }

    // ---- the dashboard's payment search ({@link PaymentSearch}) ----

    /** Filter values the search cannot take, each named by its form field ({@link PaymentFilter#read}). */
    record FilterInvalid(java.util.List<io.tender.api.FieldError> errors) implements PaymentRejection {
    }
}
