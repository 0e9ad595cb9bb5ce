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

    /**
     * Returns the definite outcome (which may be a "never received" answer the caller records as a refusal), or
     * empty when the outcome is still unknown, or a call that must happen did not get through: the call stays
     * pending for the recovery job.
     */
    public static <O> Optional<O> resolve(PendingCall<O> call, Mode mode) {
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
            return Optional.empty();
        }
        if (verdict == PendingCall.Verdict.NEVER_RECEIVED && mode.neverReceivedIsPending()) {
            return Optional.empty();
        }
        return Optional.of(outcome);
    }
}
