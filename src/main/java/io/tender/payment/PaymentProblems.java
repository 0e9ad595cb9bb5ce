package io.tender.payment;

import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
import io.tender.api.RejectionProblems;
import org.springframework.stereotype.Component;

import static io.tender.api.ApiException.invalidState;

/** The payment module's web edge: the problem each {@link PaymentRejection} answers. */
@Component
class PaymentProblems implements RejectionProblems<PaymentRejection> {

    @Override
    public ApiException problem(PaymentRejection rejection) {
        return switch (rejection) {
            case PaymentRejection.SessionNotFound r ->
                    new ApiException(ProblemCode.PAYMENT_NOT_FOUND, "No such payment session.");
            case PaymentRejection.PaymentNotFound r ->
                    new ApiException(ProblemCode.PAYMENT_NOT_FOUND, "No such payment.");
            case PaymentRejection.CustomerNotFound r ->
                    new ApiException(ProblemCode.RESOURCE_NOT_FOUND, "No such customer: " + r.customerId() + ".");
            case PaymentRejection.MethodNotFound r ->
                    new ApiException(ProblemCode.RESOURCE_NOT_FOUND, "No such payment method.");
            case PaymentRejection.SessionNotActive r -> invalidState("The payment session is " + r.status() + ".");
            case PaymentRejection.AttemptInFlight r ->
                    invalidState("An attempt is in progress; the session can be cancelled once it has ended.");
            case PaymentRejection.NotWaitingForSelection r ->
                    invalidState("The payment session is not waiting for a payment method selection.");
            case PaymentRejection.StaleForm r ->
                    invalidState("This form is from before the session's latest attempt; load the checkout again.");
            case PaymentRejection.AttemptRefused r -> invalidState(r.reason());
            case PaymentRejection.NotCapturable r -> invalidState(r.reason());
            case PaymentRejection.NothingToCapture r -> invalidState("not in an authorised state");
            case PaymentRejection.CaptureOverRemaining r ->
                    invalidState("capture amount exceeds the remaining authorised amount");
            case PaymentRejection.NothingToVoid r -> invalidState("no remaining authorised amount to void");
            case PaymentRejection.VersionMismatch r -> new ApiException(ProblemCode.CONFLICT, "The payment is at version "
                    + r.current() + ", not " + r.asked() + ". Retrieve it and decide again.");
            case PaymentRejection.ChangedConcurrently r ->
                    new ApiException(ProblemCode.CONFLICT, "The payment changed while this request ran. Retry.");
            case PaymentRejection.NoDefiniteAnswer r -> new ApiException(ProblemCode.REQUEST_TIMEOUT,
                    "The processor gave no definite answer. Payment " + r.paymentId() + " will be resolved shortly;"
                            + " retry with the same Idempotency-Key, or retrieve it, to see its final state.");
            case PaymentRejection.ProcessorRefused r -> ApiException.notPossible("The processor refused the "
                    + r.operation() + ": " + (r.message() == null ? "declined" : r.message()));
            case PaymentRejection.PushPhoneNotOfCountry r -> ApiException.badRequest("push.capitec.phone_number",
                    "must be a phone number of " + r.country() + " in international format, such as +27821234567");
            case PaymentRejection.PushNotOffered r ->
                    ApiException.notPossible("The payment session does not take capitec_pay.");
            case PaymentRejection.FilterInvalid r -> ApiException.badRequest(r.errors());
        };
    }
}
