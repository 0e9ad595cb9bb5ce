/**
 * The merchant's event log ({@code GET /events}) read from the outbox, and the catalogue of event types that
 * webhook endpoints subscribe to.
 */
package io.tender.event;
