package io.tender.billing;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The {@code data} of {@code obligation.amount_reversed} (ours, decisions §10): the fields of
 * {@link AmountApplied} with the amount the refund took back, plus {@code refund_id}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"id", "amount", "currency", "payment_id", "refund_id", "account_id", "customer_id"})
record AmountReversed(String id, long amount, String currency, String paymentId, String refundId, String accountId,
                      String customerId) {

    static final String TYPE = "obligation.amount_reversed";

    static AmountReversed of(Obligation obligation, PaymentApplication application, String refundId, long amount) {
        String accountId = obligation.accountId();
        return new AmountReversed(obligation.obligationId(), amount, application.currency(), application.paymentId(),
                refundId, accountId, accountId == null ? obligation.customerId() : null);
    }
}
