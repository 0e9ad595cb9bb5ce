/**
 * The transactional outbox: every state change writes its CloudEvents 1.0 event in the same database transaction.
 * Delivery (webhooks, Kafka) reads from here; the columns follow Debezium's outbox event router.
 */
package io.tender.outbox;
