/**
 * Webhooks (decisions §5): merchants' endpoints and their signing secrets, the fan-out of outbox events into
 * per-endpoint deliveries, and the dispatcher that makes signed attempts (Standard Webhooks) with retries, in order
 * per endpoint and aggregate, on any number of instances, each rendered in its endpoint's API version. Every attempt is
 * recorded and listable.
 */
@ApplicationModule(allowedDependencies = {"api", "apiversion", "auth", "event", "idempotency", "outbox", "secrets"})
package io.tender.webhook;

import org.springframework.modulith.ApplicationModule;
