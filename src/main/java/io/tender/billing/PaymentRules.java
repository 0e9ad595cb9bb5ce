package io.tender.billing;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.JsonInput;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which payments an obligation accepts (spec Account {@code payment_rules}, decisions §4). "Outstanding" is the
 * balance of a customer or account (a credit is below zero) or the {@code amount_remaining} of a bill: a payment
 * above it is an overpayment, one below it an underpayment.
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

    private static final Set<String> FIELDS = Set.of("min_amount", "max_amount", "overpayment_allowed", "underpayment_allowed");

    /** Reads {@code payment_rules}: both flags are required, the bounds are optional, and min is not above max. */
    static PaymentRules read(JsonInput parent) {
        JsonInput in = parent.object("payment_rules", false);
        if (in == null) {
            return null;
        }
        in.allow(FIELDS);
        Long min = in.integer("min_amount", false, 1, Amounts.MAX_PAYMENT);
        Long max = in.integer("max_amount", false, 1, Amounts.MAX_PAYMENT);
        Boolean over = in.bool("overpayment_allowed", true);
        Boolean under = in.bool("underpayment_allowed", true);
        if (min != null && max != null) {
            in.check(min <= max, "max_amount", "must not be below min_amount");
        }
        return over == null || under == null ? null : new PaymentRules(min, max, over, under);
    }

    /** Why a payment of {@code amount} against {@code outstanding} is refused, if it is. */
    Optional<String> refusal(long amount, long outstanding, String noun) {
        if (minAmount != null && amount < minAmount) {
            return Optional.of("The payment of " + amount + " is below the min_amount of " + minAmount
                    + " that this " + noun + " accepts.");
        }
        if (maxAmount != null && amount > maxAmount) {
            return Optional.of("The payment of " + amount + " is above the max_amount of " + maxAmount
                    + " that this " + noun + " accepts.");
        }
        if (amount > outstanding && !overpaymentAllowed) {
            return Optional.of("The payment of " + amount + " is more than the " + Math.max(outstanding, 0)
                    + " outstanding on this " + noun + ", and its payment_rules do not allow overpayment.");
        }
        if (amount < outstanding && !underpaymentAllowed) {
            return Optional.of("The payment of " + amount + " is less than the " + outstanding
                    + " outstanding on this " + noun + ", and its payment_rules do not allow underpayment.");
        }
        return Optional.empty();
    }

    /** The rules of a row's four rule columns; no flags means no rules. */
    static PaymentRules fromRow(ResultSet rs) throws SQLException {
        Boolean over = rs.getObject("overpayment_allowed", Boolean.class);
        if (over == null) {
            return null;
        }
        return new PaymentRules(rs.getObject("min_amount", Long.class), rs.getObject("max_amount", Long.class),
                over, rs.getBoolean("underpayment_allowed"));
    }

    /** Named parameters for the four rule columns. */
    static Map<String, Object> columns(PaymentRules rules) {
        var columns = new java.util.HashMap<String, Object>();
        columns.put("minAmount", rules == null ? null : rules.minAmount());
        columns.put("maxAmount", rules == null ? null : rules.maxAmount());
        columns.put("overpaymentAllowed", rules == null ? null : rules.overpaymentAllowed());
        columns.put("underpaymentAllowed", rules == null ? null : rules.underpaymentAllowed());
        return columns;
    }
}
