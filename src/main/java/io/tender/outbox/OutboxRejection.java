package io.tender.outbox;

import io.tender.api.Rejected;
import io.tender.api.Rejection;

/** Why an event request is refused; {@link OutboxProblems} words it. */
sealed interface OutboxRejection extends Rejection {

    default Rejected thrown() {
        return new Rejected(this);
    }

    /** Unknown ids, and other merchants' and the other mode's events. */
    record EventNotFound() implements OutboxRejection {
    }
}
