/**
 * Collect's payments (decisions §6): the {@link io.tender.payment.Payment} aggregate ({@code pay_}) and the payment
 * session ({@code ps_}) a customer pays at the hosted checkout, with their attempts, captures and voids, saved payment
 * methods ({@code pm_}) and recovery. One class per flow, each its own transaction boundary:
 * {@link io.tender.payment.PaymentSessionService}, {@code PaymentAttempts}, {@link io.tender.payment.CapturesAndVoids},
 * {@code NextInSeriesCharges} (a merchant's charge of a mandate) and {@code PaymentRecovery} (the payments' share of the
 * settlement kernel's janitor), on {@code PaymentSettlement}, which drives each processor call on the kernel redemptions
 * use, and {@code SettledCalls}, which writes what an answer settled.
 * <p>
 * Its public types are its facades and their views: {@link io.tender.payment.CheckoutSessions} for the hosted checkout,
 * {@link io.tender.payment.CollectSessions} for payment requests and pages, {@link io.tender.payment.CapturedPayments} for
 * refunds, {@link io.tender.payment.SeriesPayments} and {@link io.tender.payment.MandatePayments} for subscriptions,
 * {@link io.tender.payment.Payments} for billing, and the dashboard's read models ({@link io.tender.payment.PaymentSearch},
 * {@link io.tender.payment.SessionSearch}, {@link io.tender.payment.PaymentTotals}). Where payments must reach another
 * module it declares an SPI that module implements, so every arrow points at payment:
 * {@link io.tender.payment.PaymentObligations} (billing), {@link io.tender.payment.SessionOrigin} (payment requests and
 * pages), and for series {@link io.tender.payment.SeriesTerms}, {@link io.tender.payment.FirstInSeries},
 * {@link io.tender.payment.MandateRules} and {@link io.tender.payment.ChargeOutcomes} (subscription).
 */
@ApplicationModule(allowedDependencies = {"api", "apiversion", "auth", "database", "idempotency", "outbox", "processor",
        "processor :: sandbox", "secrets", "settlement"})
package io.tender.payment;

import org.springframework.modulith.ApplicationModule;
