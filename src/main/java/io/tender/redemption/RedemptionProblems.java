package io.tender.redemption;

import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
import io.tender.api.RejectionProblems;
import org.springframework.stereotype.Component;

/** The redemption module's web edge: the problem each {@link RedemptionRejection} answers. */
@Component
class RedemptionProblems implements RejectionProblems<RedemptionRejection> {

    @Override
    public ApiException problem(RedemptionRejection rejection) {
        return switch (rejection) {
            case RedemptionRejection.RedemptionNotFound r -> ApiException.notFound("redemption");
            case RedemptionRejection.AboveReserved r -> ApiException.badRequest("amount",
                    "must be at most the reserved amount " + r.reserved());
            case RedemptionRejection.VersionMismatch r -> new ApiException(ProblemCode.CONFLICT,
                    "The redemption is at version " + r.version() + ", not " + r.ifMatch()
                            + ". Retrieve it and decide again.");
            case RedemptionRejection.NotAwaitingClient r -> ApiException.invalidState(
                    "The redemption is " + r.status() + "; only a reserved redemption waiting for the client can be "
                            + "confirmed or reversed.");
            case RedemptionRejection.ChangedConcurrently r -> new ApiException(ProblemCode.CONFLICT,
                    "The redemption changed while this request ran. Retry.");
            case RedemptionRejection.OutcomeUnknown r -> new ApiException(ProblemCode.REQUEST_TIMEOUT,
                    "The provider gave no definite answer. Redemption " + r.redemptionId() + " will be resolved "
                            + "shortly; retry with the same Idempotency-Key, or retrieve it, to see its final state.");
        };
    }
}
