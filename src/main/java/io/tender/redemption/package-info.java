/**
 * Redemptions: redeeming stored-value vouchers at external providers. The {@link io.tender.redemption.Redemption}
 * aggregate owns its status, version and operations; {@link io.tender.redemption.RedemptionService} moves it through
 * atomic phases around each provider call, never holding a transaction open across one.
 * The merchant dashboard reads redemptions through {@link io.tender.redemption.RedemptionSearch}, as the API's
 * masked view.
 */
@ApplicationModule(allowedDependencies = {"api", "auth", "database", "idempotency", "outbox", "provider", "secrets", "settlement"})
package io.tender.redemption;

import org.springframework.modulith.ApplicationModule;
