package io.tender.payment;

import io.tender.auth.Mode;

import java.time.Instant;

/** A payment: how much arrived, in which currency, and which obligation ({@code ob_}) it is for. */
public record Payment(String id, Mode mode, PaymentStatus status, long amount, String currency, long paidAmount,
                      String obligationId, Instant createdAt, Instant updatedAt) {
}
