/**
 * The hosted checkout (decisions §6): the server-rendered pages a customer pays on at a payment session's
 * {@code session_url} ({@code /checkout/ckt_…}), the sandbox 3-D Secure and bank pages, and {@code /checkout.js}
 * for the embedded modes. It owns no payment state: it calls {@link io.tender.payment.Checkout}, payments' one entry
 * for the checkout, and renders the {@link io.tender.payment.CheckoutPage} it answers. Card numbers and security codes
 * pass through this package to the processor and are never stored, logged, rendered back or put in a URL.
 */
@ApplicationModule(allowedDependencies = {"api", "auth", "payment", "processor :: sandbox", "ratelimit", "secrets"})
package io.tender.checkout;

import org.springframework.modulith.ApplicationModule;
