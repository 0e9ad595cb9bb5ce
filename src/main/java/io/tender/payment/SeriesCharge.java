package io.tender.payment;

import java.time.LocalDate;

/**
 * A payment as a charge of a mandate (decisions §8): the mandate and the date it is for in the mandate's zone (which
 * period of the period limit it counts in). A subscription's charge also names its {@code period} (1, 2, …) and that
 * period's {@code attempt} (1 for the first, then each retry), from which its processor key is derived. The first
 * payment of a series is a charge of the mandate its success creates ({@code subscriptionId} null, period 0).
 * {@code offSession}: made without the customer (every charge but the first payment).
 */
public record SeriesCharge(String mandateId, LocalDate chargeDate, String subscriptionId, Integer period,
                           Integer attempt, boolean offSession) {

    /** The first payment, which the customer made on the checkout. */
    static SeriesCharge first(String mandateId, LocalDate chargeDate) {
        return new SeriesCharge(mandateId, chargeDate, null, null, null, false);
    }

    /** The merchant's charge ({@code next_in_series}), without the customer. */
    static SeriesCharge ofMandate(String mandateId, LocalDate chargeDate) {
        return new SeriesCharge(mandateId, chargeDate, null, null, null, true);
    }

    /** Tender's charge of a subscription's {@code period}, its {@code attempt}th try, without the customer. */
    public static SeriesCharge ofPeriod(String mandateId, LocalDate chargeDate, String subscriptionId, int period,
                                        int attempt) {
        return new SeriesCharge(mandateId, chargeDate, subscriptionId, period, attempt, true);
    }
}
