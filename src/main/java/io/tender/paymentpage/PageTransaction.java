package io.tender.paymentpage;

import io.tender.auth.Mode;

import java.time.Instant;

/**
 * One attempt through a page that ended (decisions §7): {@code succeeded} or {@code failed} (declined, or expired
 * while it waited). One per payment; it never changes once written.
 */
record PageTransaction(String id, String paymentPageId, String merchantId, Mode mode, String status, long amount,
                       String currency, Visit.Details details, String paymentId, String paymentSessionId,
                       String checkoutSessionId, Instant createdAt, Instant updatedAt, long refundedAmount) {
}
