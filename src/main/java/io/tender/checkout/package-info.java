/**
 * The hosted checkout (decisions §6): the server-rendered pages a customer pays on at a payment session's
 * {@code session_url} ({@code /checkout/ckt_…}), the sandbox 3-D Secure and bank pages, and {@code /checkout.js}
 * for the embedded modes. {@link io.tender.checkout.Checkout} is its application service: it reads the session through
 * payments' {@link io.tender.payment.CheckoutSessions} and answers the {@link io.tender.checkout.CheckoutPage} to
 * render; {@link io.tender.checkout.PaymentForm} holds the form's card, bank and phone rules; the JSON API
 * ({@code CheckoutJsonController}, off unless {@code tender.checkout.json-api=true}) drives the same service. It owns
 * no payment state. Card numbers and security codes pass through this package to the processor and are never stored,
 * logged, rendered back or put in a URL.
 */
@ApplicationModule(allowedDependencies = {"api", "auth", "payment", "processor", "processor :: sandbox", "ratelimit",
        "secrets"})
package io.tender.checkout;

import org.springframework.modulith.ApplicationModule;
