/**
 * The service's own embedded PostgreSQL when no {@code SPRING_DATASOURCE_URL} is given. It depends on no other module.
 */
@ApplicationModule(allowedDependencies = {})
package io.tender.database;

import org.springframework.modulith.ApplicationModule;
