package io.tender.redemption;

import io.tender.api.Rejection;

/** Why a redemption request is refused, with what was compared; {@link RedemptionProblems} words it. */
sealed interface RedemptionRejection extends Rejection {

    record RedemptionNotFound() implements RedemptionRejection {
    }

    /** A confirm of more than the reservation holds. */
    record AboveReserved(long amount, long reserved) implements RedemptionRejection {
    }

    /** The client's {@code If-Match} names a version the redemption has moved past. */
    record VersionMismatch(int version, int ifMatch) implements RedemptionRejection {
    }

    /** Only a reserved redemption waiting for the client can be confirmed or reversed; this one is {@code status}. */
    record NotAwaitingClient(String status) implements RedemptionRejection {
    }

    /** Another request changed the redemption between this one's read and write. */
    record ChangedConcurrently() implements RedemptionRejection {
    }

    /** The provider gave no definite answer in time; the redemption is resolved later. */
    record OutcomeUnknown(String redemptionId) implements RedemptionRejection {
    }
}
