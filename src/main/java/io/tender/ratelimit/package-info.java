/**
 * Rate limits (decisions §9): token buckets per client address (failed authentications) and per API key (balance
 * lookups, all requests), kept in this instance's memory and answered 429 {@code too_many_requests} with
 * {@code Retry-After} and the {@code RateLimit-Policy} / {@code RateLimit} fields.
 */
@ApplicationModule(allowedDependencies = {"api"})
package io.tender.ratelimit;

import org.springframework.modulith.ApplicationModule;
