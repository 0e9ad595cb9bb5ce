/**
 * Payment pages (decisions §7): a merchant's reusable page ({@code pp_}) at a public {@code page_url} that anyone can
 * pay through, a fixed amount or the payer's choice, with the payer's details, a delivery address and custom fields
 * as the page asks. Each visit that passes the page's form opens an ordinary payment session
 * ({@link io.tender.payment.CollectSessions}, origin {@code payment_page}) and is paid on the hosted checkout; each
 * attempt that ends comes back through {@link io.tender.paymentpage.PaymentPageOrigin} as the page's transaction
 * ({@code pt_}). This package depends on payment, checkout's headers, the kernel and the rate limits; nothing depends
 * on it.
 */
@ApplicationModule(allowedDependencies = {"api", "auth", "checkout", "idempotency", "outbox", "payment", "qr",
        "ratelimit", "secrets"})
package io.tender.paymentpage;

import org.springframework.modulith.ApplicationModule;
