/**
 * The shared kernel of the HTTP API that every feature module builds on: problem+json errors
 * ({@link io.tender.api.ApiException}), request parsing ({@link io.tender.api.JsonInput}), ids, timestamps, currencies,
 * and cursor lists ({@link io.tender.api.ListQuery}, {@link io.tender.api.ListPage}, {@link io.tender.api.ListSql}).
 * It depends on no other module: a list is scoped by a {@link io.tender.api.Tenant}, which {@code auth}'s caller is.
 */
@ApplicationModule(allowedDependencies = {})
package io.tender.api;

import org.springframework.modulith.ApplicationModule;
