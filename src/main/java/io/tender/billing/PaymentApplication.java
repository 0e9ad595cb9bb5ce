package io.tender.billing;

import java.time.Instant;

/**
 * A payment applied to an obligation: which payment, which obligation (and whose: the customer, and the account or
 * bill when there is one), how much, and the {@code obligation.amount_applied} event it caused.
 */
public record PaymentApplication(String paymentId, String obligationId, String customerId, String accountId,
                                 String billId, long amount, String currency, String eventId, Instant appliedAt) {
}
