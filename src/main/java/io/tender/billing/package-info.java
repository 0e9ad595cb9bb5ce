/**
 * Billing: customers, accounts under customers, and bills (spec "Billing", decisions §4). Each customer balance,
 * account balance and bill is one {@link io.tender.billing.Obligation} with a stable {@code ob_} id;
 * {@link io.tender.billing.ObligationPayments} applies payments to them under their payment rules, moving the
 * balance or amount paid and writing {@code obligation.amount_applied} in the same transaction; a refund's success
 * reverses that much of the application ({@code obligation.amount_reversed}, at most once per refund). Every write
 * locks the row it changes, so concurrent payments and corrections serialize per obligation and balances never drift.
 * The merchant dashboard reads customers, accounts, bills and applied payments through
 * {@link io.tender.billing.BillingSearch} only.
 */
@ApplicationModule(allowedDependencies = {"api", "auth", "database", "idempotency", "outbox", "payment"})
package io.tender.billing;

import org.springframework.modulith.ApplicationModule;
