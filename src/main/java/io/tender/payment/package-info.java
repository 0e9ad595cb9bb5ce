/**
 * Collect's payments (decisions §6): the {@link io.tender.payment.Payment} aggregate ({@code pay_}) and the payment
 * session ({@code ps_}) a customer pays at the hosted checkout. {@link io.tender.payment.Checkout} is the checkout's
 * one entry. One class per flow, each its own transaction boundary: {@link io.tender.payment.PaymentSessionService},
 * {@link io.tender.payment.PaymentAttempts}, {@link io.tender.payment.CapturesAndVoids} and
 * {@link io.tender.payment.PaymentRecovery} (the payments' share of the settlement kernel's janitor), around
 * {@link io.tender.payment.PaymentSettlement}, which drives each processor call on the kernel redemptions use.
 * {@link io.tender.payment.Payments} is the module's facade for billing, which implements
 * {@link io.tender.payment.PaymentObligations}: billing depends on payments, never the reverse.
 * {@link io.tender.payment.PaymentSearch} is the dashboard's read model of the Payments page (filters, pages, CSV), and
 * {@link io.tender.payment.PaymentTimeline} of a payment's page; the latter reads webhook deliveries through the
 * webhook module's {@code WebhookDeliveryLog} (webhook knows nothing of payments, so the arrow goes one way).
 */
@ApplicationModule(allowedDependencies = {"api", "apiversion", "auth", "idempotency", "outbox", "processor",
        "processor :: sandbox", "secrets", "settlement", "webhook"})
package io.tender.payment;

import org.springframework.modulith.ApplicationModule;
