package io.tender.settlement;

/**
 * The pending call of one aggregate, as {@link Settlement} drives it. {@code O} is the other side's outcome type
 * (a voucher provider's or a payment processor's).
 */
public interface PendingCall<O> {

    /** What an outcome means for money. */
    enum Verdict {
        /** The other side decided (approved, declined, or waiting for the customer). */
        DEFINITE,
        /** The call may or may not have moved money: it must be resolved before anything is reported. */
        UNKNOWN,
        /** A status query's answer: the other side never received the call under this key (and now never will). */
        NEVER_RECEIVED
    }

    /** Sends the call under the key recorded for it. */
    O send();

    /** Asks the other side what became of the call sent under the recorded key; changes nothing there. */
    O status();

    Verdict classify(O outcome);

    /**
     * Gives the pending call a fresh key, since the old one is fenced at the other side once asked after, and
     * records it durably, so the new key is known before the call is sent under it.
     */
    void reissue();
}
