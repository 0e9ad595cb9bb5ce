/**
 * The seam to voucher providers: the {@link io.tender.provider.VoucherProvider} SPI, its sealed outcomes, the
 * redemption types and their credentials, and the registry that picks a provider by mode and type. Test mode is
 * served by the {@code sandbox} providers; live mode by the adapters an operator configures.
 */
@ApplicationModule(allowedDependencies = {"api", "auth", "database", "idempotency", "ratelimit", "secrets"})
package io.tender.provider;

import org.springframework.modulith.ApplicationModule;
