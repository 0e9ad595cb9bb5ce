package io.tender.refund;

import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
import io.tender.api.RejectionProblems;
import org.springframework.stereotype.Component;

import static io.tender.api.ApiException.invalidState;

/** The refunds' web edge: the problem each {@link RefundRejection} answers. */
@Component
class RefundProblems implements RejectionProblems<RefundRejection> {

    @Override
    public ApiException problem(RefundRejection rejection) {
        return switch (rejection) {
            case RefundRejection.RefundNotFound r ->
                    new ApiException(ProblemCode.RESOURCE_NOT_FOUND, "No such refund.");
            case RefundRejection.NotRefundable r -> invalidState("The payment is " + r.status() + "; only captured money"
                    + " is refunded.");
            case RefundRejection.NoProcessorPayment r -> invalidState("The payment was recorded by the billing test helper,"
                    + " not taken through a processor: there is nothing to refund.");
            case RefundRejection.NothingCaptured r -> invalidState("nothing captured to refund; void the authorization instead");
            case RefundRejection.RefundOverRefundable r -> invalidState("refund amount exceeds the refundable amount");
        };
    }
}
