package io.tender.billing;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tender.payment.Payment;

/**
 * The {@code data} of {@code obligation.amount_applied} (spec "Billing webhook"): {@code account_id} when the
 * obligation is an account's balance or a bill raised against an account, {@code customer_id} otherwise.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"id", "amount", "currency", "payment_id", "account_id", "customer_id"})
record AmountApplied(String id, long amount, String currency, String paymentId, String accountId, String customerId) {

    static final String TYPE = "obligation.amount_applied";

    static AmountApplied of(Obligation obligation, Payment payment) {
        String accountId = obligation.accountId();
        return new AmountApplied(obligation.obligationId(), payment.amount(), payment.currency(), payment.id(),
                accountId, accountId == null ? obligation.customerId() : null);
    }
}
