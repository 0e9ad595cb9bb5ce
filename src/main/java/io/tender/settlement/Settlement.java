package io.tender.settlement;

import java.util.Optional;

/**
 * Drives one pending call to a definite outcome: the one algorithm every money-moving call goes through.
 * Never sends a call twice under one key; an unknown outcome is resolved by the call's status.
 */
public final class Settlement {

    private Settlement() {
    }

    /**
     * How to treat the pending call.
     *
     * @param askFirst              the call may have been sent before (a crash, a request that gave up): ask after it
     *                              instead of sending it
     * @param mustHappen            when asked after and never received, the call is still wanted (a reversal, a void,
     *                              a confirm the client asked for): send it again under a fresh key
     * @param neverReceivedIsPending a call of this kind that did not get through has simply not happened yet: it stays
     *                              pending (and is sent again later) rather than being recorded as refused
     */
    public record Mode(boolean askFirst, boolean mustHappen, boolean neverReceivedIsPending) {
        public static final Mode SEND = new Mode(false, false, false);
    }

    /** Where a pending call stands after {@link #resolve}. */
    public sealed interface Resolution<O> {

        /**
         * The other side decided (which may be a "never received" answer the caller records as a refusal). Empty for
         * an unknown or not-arrived call.
         */
        default Optional<O> definite() {
            return this instanceof Settled<O>(O outcome) ? Optional.of(outcome) : Optional.empty();
        }

        /** A definite outcome, to record. */
        record Settled<O>(O outcome) implements Resolution<O> {
        }

        /**
         * The call went out and neither its answer nor a status query says what became of it: money may have moved.
         * The caller records it as unknown, for the recovery job to ask after.
         */
        record Unknown<O>() implements Resolution<O> {
        }

        /**
         * A call that must happen never reached the other side (asked after, or sent again and lost): nothing moved,
         * and it stays pending, to be sent later under a fresh key.
         */
        record NotArrived<O>() implements Resolution<O> {
        }
    }

    /**
     * Drives the call: sends it (or, with {@code askFirst}, asks after it), resolves an unknown answer by its status,
     * and answers where it stands. Never sends one key twice.
     */
    public static <O> Resolution<O> resolve(PendingCall<O> call, Mode mode) {
        boolean askFirst = mode.askFirst();
        O outcome = askFirst ? call.status() : call.send();
        if (askFirst && (mode.mustHappen() || mode.neverReceivedIsPending())
                && call.classify(outcome) == PendingCall.Verdict.NEVER_RECEIVED) {
            // It moved nothing yet, and its key is fenced now: it goes again under a fresh key, recorded first.
            call.reissue();
            outcome = call.send();
            askFirst = false;
        }
        if (!askFirst && call.classify(outcome) == PendingCall.Verdict.UNKNOWN) {
            outcome = call.status();
        }
        PendingCall.Verdict verdict = call.classify(outcome);
        if (verdict == PendingCall.Verdict.UNKNOWN) {
            return new Resolution.Unknown<>();
        }
        if (verdict == PendingCall.Verdict.NEVER_RECEIVED && mode.neverReceivedIsPending()) {
            return new Resolution.NotArrived<>();
        }
        return new Resolution.Settled<>(outcome);
    }
}
