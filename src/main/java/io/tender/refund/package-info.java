/**
 * Refunds of captured money (decisions §10): the {@link io.tender.refund.Refund} aggregate ({@code rfd_}), which also
 * holds the rule of what a payment has left to refund ({@link io.tender.refund.Refund#refundable}) that the API and the
 * dashboard both ask; {@link io.tender.refund.PaymentRefunds}, the flow around each processor call and the refunds'
 * share of the settlement kernel's janitor; the API ({@code RefundController}); and a payment's timeline for the
 * dashboard ({@link io.tender.refund.PaymentTimeline}), which reads the payment's calls, its refunds and their events
 * with their webhook deliveries. It reads payments only through payments' {@link io.tender.payment.CapturedPayments}
 * and reverses a refunded payment's application to a bill or account through {@link io.tender.payment.PaymentObligations}
 * (billing implements it): refund depends on payment, never the reverse.
 */
@ApplicationModule(allowedDependencies = {"api", "auth", "idempotency", "outbox", "payment", "processor", "settlement",
        "webhook"})
package io.tender.refund;

import org.springframework.modulith.ApplicationModule;
