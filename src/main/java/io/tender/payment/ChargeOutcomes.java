package io.tender.payment;

import io.tender.outbox.Outbox;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the end of a charge without the customer does to its series (decisions §8): a success counts on its mandate;
 * a subscription's period is paid, or declined and tried again or failed for good. The module owning mandates and
 * subscriptions implements this; payments call it in the transaction that records the payment's final state, whoever
 * finished it (the request, the scheduler, the recovery job), and before the recovery job sends such a charge again.
 */
public interface ChargeOutcomes {

    /** A charge that reached its final state: {@code declineCode} is what the retry rules read of a decline. */
    record Ended(String paymentId, SeriesCharge charge, boolean succeeded, String declineCode) {
    }

    /**
     * What its series decided: whether the payment is tried again (null when nothing is decided about it), and the
     * series' events, each rendered when the payment is written, after its own.
     */
    record Decided(ChargeRetry retry, List<Supplier<Outbox.Event>> events) {

        /** Nothing to decide: the charge's series has moved on without it. */
        public static final Decided NOTHING = new Decided(null, List.of());
    }

    /** The series rows of several charges, locked ({@link #lockAll}) until the caller's transaction ends. */
    interface Locked {
        /** The ends of those charges, decided on the locked rows and written, by payment id. */
        Map<String, Decided> settle(List<Ended> ended);
    }

    /** One charge's end: its rows locked, decided and written in the caller's transaction. */
    Decided settled(Ended ended);

    /**
     * Locks the series rows of several charges in the caller's transaction, in the order every flow takes them
     * (mandates, then subscriptions, then periods), before their payments are locked.
     */
    Locked lockAll(List<SeriesCharge> charges);

    /**
     * Whether a charge without the customer that never reached the processor is still wanted: its mandate active and,
     * for a subscription's, the subscription still charged. The recovery job sends it again only then.
     */
    boolean stillWanted(SeriesCharge charge);
}
