package io.tender.notify;

import io.tender.api.Rejection;

/** Why a payment link message cannot be queued; {@link NotifyProblems} words it. */
sealed interface NotifyRejection extends Rejection {

    /** The {@code channel} has no server or gateway configured for the caller's mode. */
    record ChannelUnavailable(Channel channel) implements NotifyRejection {
    }
}
