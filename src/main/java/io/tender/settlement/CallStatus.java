package io.tender.settlement;

/**
 * Where one call to another system stands, as the kernel keeps it: {@code PENDING} while it is recorded and being
 * sent (its writer holds the lease), {@code UNKNOWN} once it was sent and neither its answer nor a status query said
 * what became of it (value may have moved: only the other side's status answer settles it), then {@code SUCCEEDED}
 * or {@code FAILED}. A redemption's provider calls and a payment's processor calls are kept this way.
 */
public enum CallStatus {
    PENDING, UNKNOWN, SUCCEEDED, FAILED;

    /** Not settled yet: not sent, being sent, or sent with an unknown outcome. */
    public boolean open() {
        return this == PENDING || this == UNKNOWN;
    }

    public String wire() {
        return name().toLowerCase();
    }
}
