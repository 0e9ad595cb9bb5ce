/**
 * Collect's payment requests (decisions §7): one payment asked of one customer, by a link to Tender's hosted checkout
 * or pushed to the customer's banking app. Each request opens one ordinary payment session
 * ({@link io.tender.payment.CollectSessions}) and follows its moves as its {@link io.tender.payment.SessionOrigin}:
 * paid, expired, cancelled, or (a declined push) failed. Depends on payments, billing's public API and the shared
 * kernel; nothing depends on it.
 */
@ApplicationModule(allowedDependencies = {"api", "auth", "billing", "database", "idempotency", "notify", "outbox", "payment",
        "qr", "settlement"})
package io.tender.paymentrequest;

import org.springframework.modulith.ApplicationModule;
