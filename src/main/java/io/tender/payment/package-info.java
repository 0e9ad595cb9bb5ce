/**
 * Payments ({@code pay_}): money received for one obligation. {@link io.tender.payment.Payments} records and reads
 * them for other modules (billing applies them to obligations); {@code GET /collect/payments/{id}} shows them.
 * Collect will create payments from payment sessions; until then billing's test helper is the only source.
 */
package io.tender.payment;
