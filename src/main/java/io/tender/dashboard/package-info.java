/**
 * The merchant dashboard (decisions §11): server-rendered pages at {@code /dashboard} for a merchant's people, on
 * their own Spring Security filter chain ({@link io.tender.dashboard.DashboardSecurity}) with session cookies, CSRF
 * tokens and roles, while the API keeps its stateless key authentication. It owns the dashboard's users
 * ({@code usr_}), their one-time sign-in links and the append-only audit log. The merchant of every page comes from
 * the signed-in user, never from the request; money is read through payments' facade
 * ({@link io.tender.payment.PaymentTotals}), billing's ({@link io.tender.billing.BillingSearch}) and redemptions'
 * ({@link io.tender.redemption.RedemptionSearch}).
 */
@ApplicationModule(allowedDependencies = {"api", "apiversion", "auth", "billing", "event", "idempotency", "notify", "outbox",
        "payment", "paymentpage", "paymentrequest", "qr", "ratelimit", "redemption", "refund", "secrets", "subscription",
        "webhook"})
package io.tender.dashboard;

import org.springframework.modulith.ApplicationModule;
