package io.tender.billing;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Optional;

/**
 * Which payments an obligation accepts (spec Account {@code payment_rules}, decisions §4). "Outstanding" is the
 * balance of a customer or account (a credit is below zero) or the {@code amount_remaining} of a bill: a payment
 * above it is an overpayment, one below it an underpayment. The record is the rule and its wire shape (the JSON and
 * schema clients see); {@link PaymentRulesInput} reads it from a request and {@link PaymentRulesColumns} maps it to
 * a row.
 */
@JsonPropertyOrder({"min_amount", "max_amount", "overpayment_allowed", "underpayment_allowed"})
@Schema(name = "PaymentRules", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
record PaymentRules(
        @Schema(minimum = "1", maximum = "99999999", description = "Smallest payment accepted, minor units.") Long minAmount,
        @Schema(minimum = "1", maximum = "99999999", description = "Largest payment accepted, minor units.") Long maxAmount,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Whether payments above the outstanding amount are accepted.") boolean overpaymentAllowed,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Whether payments below the outstanding amount (partial payments) are accepted.") boolean underpaymentAllowed) {

    /** What a bill created without rules accepts: partial payments up to what remains, never more. */
    static final PaymentRules BILL_DEFAULT = new PaymentRules(null, null, false, true);

    /**
     * Why a payment of {@code amount} against {@code outstanding} is refused, if it is: the bounds first, then over-
     * and underpayment. {@code noun} names the obligation in the rejection.
     */
    Optional<BillingRejection> rejection(long amount, long outstanding, String noun) {
        if (minAmount != null && amount < minAmount) {
            return Optional.of(new BillingRejection.BelowMinimum(noun, amount, minAmount));
        }
        if (maxAmount != null && amount > maxAmount) {
            return Optional.of(new BillingRejection.AboveMaximum(noun, amount, maxAmount));
        }
        if (amount > outstanding && !overpaymentAllowed) {
            return Optional.of(new BillingRejection.OverOutstanding(noun, amount, outstanding));
        }
        if (amount < outstanding && !underpaymentAllowed) {
            return Optional.of(new BillingRejection.UnderOutstanding(noun, amount, outstanding));
        }
        return Optional.empty();
    }
}
