package io.tender.payment;

import java.time.Instant;

/**
 * A customer's acceptance of a {@code first_in_series} session's terms (decisions §8): when they started paying it,
 * from which address and browser. The session records it with the attempt; the mandate its success creates keeps it.
 */
public record Acceptance(Instant acceptedAt, String ipAddress, String userAgent) {
}
