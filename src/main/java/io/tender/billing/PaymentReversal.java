package io.tender.billing;

import java.time.Instant;

/**
 * A refund that took {@code amount} of an applied payment back from its obligation, and the
 * {@code obligation.amount_reversed} event it caused.
 */
record PaymentReversal(String refundId, String paymentId, String obligationId, long amount, String currency,
                       String eventId, Instant reversedAt) {
}
