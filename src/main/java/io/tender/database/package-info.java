/**
 * The service's own embedded PostgreSQL when no {@code SPRING_DATASOURCE_URL} is given, and {@link
 * io.tender.database.RoundTrips}: several statements sent to PostgreSQL in one round trip. It depends on no other module.
 */
@ApplicationModule(allowedDependencies = {})
package io.tender.database;

import org.springframework.modulith.ApplicationModule;
