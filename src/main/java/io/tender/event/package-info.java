/**
 * The merchant's event log ({@code GET /events}) read from the outbox, and the catalogue of event types that
 * webhook endpoints subscribe to.
 */
@ApplicationModule(allowedDependencies = {"api", "auth", "outbox"})
package io.tender.event;

import org.springframework.modulith.ApplicationModule;
