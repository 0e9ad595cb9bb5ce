/**
 * Collect's payments (decisions §6): the {@link io.tender.payment.Payment} aggregate ({@code pay_}) and the payment
 * session ({@code ps_}) a customer pays at the hosted checkout ({@link io.tender.payment.Checkout} is the checkout's
 * application API). {@link io.tender.payment.PaymentService} moves payments around each processor call on the
 * settlement kernel that redemptions use; {@link io.tender.payment.PaymentRecovery} is their janitor.
 * {@link io.tender.payment.Payments} is the module's facade for billing, which implements
 * {@link io.tender.payment.PaymentObligations}: billing depends on payments, never the reverse.
 */
@ApplicationModule(allowedDependencies = {"api", "auth", "idempotency", "outbox", "processor",
        "processor :: sandbox", "secrets", "settlement"})
package io.tender.payment;

import org.springframework.modulith.ApplicationModule;
