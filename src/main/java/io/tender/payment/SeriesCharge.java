package io.tender.payment;

import io.tender.settlement.OperationKeys;

import java.time.LocalDate;

/**
 * A payment as a charge of a mandate (decisions §8): the mandate and the date it is for in the mandate's zone (which
 * period of the period limit it counts in). A subscription's charge also names its {@code period} (1, 2, …) and that
 * period's {@code attempt} (1 for the first, then each retry), from which its processor key is derived. The first
 * payment of a series is a charge of the mandate its success creates ({@code subscriptionId} null, period 0).
 * {@code offSession}: made without the customer (every charge but the first payment).
 */
public record SeriesCharge(String mandateId, LocalDate chargeDate, Period ofSubscription, boolean offSession) {

    /** A subscription's {@code period} (1, 2, …) and that period's {@code attempt} (1, then each retry). */
    record Period(String subscriptionId, int number, int attempt) {
    }

    /** The first payment, which the customer made on the checkout. */
    static SeriesCharge first(String mandateId, LocalDate chargeDate) {
        return new SeriesCharge(mandateId, chargeDate, null, false);
    }

    /** The merchant's charge ({@code next_in_series}), without the customer. */
    static SeriesCharge ofMandate(String mandateId, LocalDate chargeDate) {
        return new SeriesCharge(mandateId, chargeDate, null, true);
    }

    /** Tender's charge of a subscription's {@code period}, its {@code attempt}th try, without the customer. */
    public static SeriesCharge ofPeriod(String mandateId, LocalDate chargeDate, String subscriptionId, int period,
                                        int attempt) {
        return new SeriesCharge(mandateId, chargeDate, new Period(subscriptionId, period, attempt), true);
    }

    /** The subscription charged, or null for a charge of the mandate alone. */
    public String subscriptionId() {
        return ofSubscription == null ? null : ofSubscription.subscriptionId();
    }

    /** The subscription's period charged, or null. */
    public Integer period() {
        return ofSubscription == null ? null : ofSubscription.number();
    }

    /** Which try at the period this is (1, then each retry), or null. */
    public Integer attempt() {
        return ofSubscription == null ? null : ofSubscription.attempt();
    }

    /**
     * The processor key of a subscription's charge, derived from its subscription, period and attempt
     * ({@code sub_…:3:charge}, {@code sub_…:3:charge:2}): whoever records it, the processor sees one key per attempt.
     */
    String processorKey() {
        return OperationKeys.of(ofSubscription.subscriptionId() + ":" + ofSubscription.number(), "charge",
                ofSubscription.attempt() - 1);
    }
}
