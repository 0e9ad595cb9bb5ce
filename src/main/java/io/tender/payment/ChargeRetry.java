package io.tender.payment;

import java.time.Instant;

/**
 * Whether a declined subscription charge is tried again, and when ({@code payment.failed}'s {@code will_retry} and
 * {@code next_retry_at}): decided by its series with the decline, in the transaction that records it.
 */
public record ChargeRetry(boolean willRetry, Instant nextRetryAt) {
}
