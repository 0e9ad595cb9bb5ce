/**
 * Collect's series (decisions §8): mandates ({@code mdt_}), what a customer agreed to be charged without them, and
 * subscriptions ({@code sub_}), which Tender charges itself every interval. It owns their aggregates and rules
 * ({@link io.tender.subscription.Mandate}, {@link io.tender.subscription.Subscription}, their terms, schedules and words),
 * their API ({@code MandateController}, {@code SubscriptionController}, the merchant's moves in
 * {@link io.tender.subscription.SeriesService}), the scheduler that charges each due period
 * ({@code SubscriptionScheduler}, through {@code SubscriptionCharges}) and the test clocks ({@code TestClocks}), and the
 * dashboard's read model of both ({@link io.tender.subscription.SeriesPages}). Money moves through payments only: a
 * period's charge is a payment started through {@link io.tender.payment.SeriesPayments}; where payments must reach
 * back (a first payment's success, a merchant's {@code next_in_series} charge, a charge's end, a session's terms)
 * this module implements the SPIs payments declares ({@link io.tender.payment.FirstInSeries},
 * {@link io.tender.payment.MandateRules}, {@link io.tender.payment.ChargeOutcomes},
 * {@link io.tender.payment.SeriesTerms}): subscription depends on payment, never the reverse.
 */
@ApplicationModule(allowedDependencies = {"api", "auth", "idempotency", "outbox", "payment"})
package io.tender.subscription;

import org.springframework.modulith.ApplicationModule;
