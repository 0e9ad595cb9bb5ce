/**
 * Webhooks (decisions §5): merchants' endpoints and their signing secrets, the fan-out of outbox events into
 * per-endpoint deliveries, and the dispatcher that makes signed attempts (Standard Webhooks) with retries, in order
 * per endpoint and aggregate, on any number of instances. Every attempt is recorded and listable.
 */
package io.tender.webhook;
