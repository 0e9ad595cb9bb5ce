/**
 * The transactional outbox: every state change writes its CloudEvents 1.0 event in the same database transaction
 * ({@link io.tender.outbox.Outbox}). The relay delivers each event to every channel (webhook fan-out, Kafka) at
 * least once and in order per aggregate, on any number of instances; delivered events are purged after the
 * retention. The columns follow Debezium's outbox event router, so CDC can take over the Kafka side.
 */
@ApplicationModule(allowedDependencies = {"api", "auth", "database"})
package io.tender.outbox;

import org.springframework.modulith.ApplicationModule;
