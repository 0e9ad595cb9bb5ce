package io.tender.paymentrequest;

import io.tender.api.ApiException;
import io.tender.api.FieldError;
import io.tender.api.ProblemCode;
import io.tender.api.RejectionProblems;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;

/** The payment request module's web edge: the problem each {@link PaymentRequestRejection} answers. */
@Component
class PaymentRequestProblems implements RejectionProblems<PaymentRequestRejection> {

    @Override
    public ApiException problem(PaymentRequestRejection rejection) {
        return switch (rejection) {
            case PaymentRequestRejection.ExpiryOutsideLifetime(var lifetime) ->
                    ApiException.badRequest("expires_at", lifetime.rule());
            case PaymentRequestRejection.Refused r -> switch (r.refusal()) {
                case PaymentRequest.Refusal.NotActive(var status) -> ApiException.invalidState(
                        "The payment request is " + status.wire() + "; only an active request can be changed or "
                        + "cancelled.");
                case PaymentRequest.Refusal.StaleVersion(int current, int asked) -> new ApiException(
                        ProblemCode.CONFLICT, "The payment request is at version " + current + ", not " + asked
                        + ". Retrieve it and decide again.");
            };
            case PaymentRequestRejection.NoWayToReach r -> ApiException.badRequest(unreachable(r));
            case PaymentRequestRejection.EmailUnavailable r -> ApiException.notPossible("notify.email: this service"
                    + " has no mail server configured; its operator sets SPRING_MAIL_HOST (and SPRING_MAIL_PORT,"
                    + " SPRING_MAIL_USERNAME, SPRING_MAIL_PASSWORD).");
            case PaymentRequestRejection.SmsUnavailable r -> ApiException.notPossible("notify.sms: this service has"
                    + " no SMS gateway configured for " + r.mode() + " mode.");
        };
    }

    private static List<FieldError> unreachable(PaymentRequestRejection.NoWayToReach r) {
        List<FieldError> errors = new ArrayList<>();
        if (r.email()) {
            errors.add(new FieldError("notify.email", "needs the customer's email (customer.email, or a billing "
                    + "customer with one)"));
        }
        if (r.sms()) {
            errors.add(new FieldError("notify.sms", "needs the customer's phone (customer.phone, or a billing "
                    + "customer with one)"));
        }
        return errors;
    }
}
