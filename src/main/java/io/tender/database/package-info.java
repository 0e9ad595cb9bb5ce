/**
 * The service's own embedded PostgreSQL when no {@code SPRING_DATASOURCE_URL} is given (which lets in only whoever gives
 * the password generated into the data folder), and {@link
 * io.tender.database.RoundTrips}: several statements sent to PostgreSQL in one round trip; and {@link
 * io.tender.database.Transactions}, the check of a step that runs in its caller's transaction. It depends on no other
 * module.
 */
@ApplicationModule(allowedDependencies = {})
package io.tender.database;

import org.springframework.modulith.ApplicationModule;
