/**
 * Merchants, their four kinds of API keys, and who is calling: every request under the API paths is authenticated
 * here into a {@link io.tender.auth.Caller} (merchant and mode) that all queries are scoped by.
 */
@ApplicationModule(allowedDependencies = {"api", "ratelimit", "secrets"})
package io.tender.auth;

import org.springframework.modulith.ApplicationModule;
