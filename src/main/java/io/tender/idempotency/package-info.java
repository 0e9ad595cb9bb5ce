/**
 * Idempotency-Key handling for every POST and PATCH (decisions §1): a key is bound to method, path, the request's
 * API version (decisions §15) and a hash of the canonical body, replays its stored response byte for byte for 24
 * hours, and is never run twice at once.
 * Single-transaction endpoints use {@link io.tender.idempotency.IdempotentRequests}; endpoints that call a provider
 * between transactions (redemptions) claim and complete keys through {@link io.tender.idempotency.IdempotencyKeys}.
 */
@ApplicationModule(allowedDependencies = {"api", "apiversion", "auth", "database", "secrets"})
package io.tender.idempotency;

import org.springframework.modulith.ApplicationModule;
