/**
 * Rate limits (decisions §9, §12, §13): token buckets for failed authentications per client address and balance
 * lookups per API key, shared by every instance in PostgreSQL ({@code rate_limit_buckets}), and for requests per API
 * key, payment page visits per client address and page, public page ids that do not exist per client address and
 * public pages that exist per client address and id, in this instance's memory; and windows shared the same way in
 * which other modules count their own events ({@link io.tender.ratelimit.SharedWindows}: the dashboard's sign-in
 * throttle). A refusal is 429 {@code too_many_requests} with {@code Retry-After} and the {@code RateLimit-Policy} /
 * {@code RateLimit} fields.
 */
@ApplicationModule(allowedDependencies = {"api"})
package io.tender.ratelimit;

import org.springframework.modulith.ApplicationModule;
