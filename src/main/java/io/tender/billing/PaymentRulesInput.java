package io.tender.billing;

import io.tender.api.JsonInput;

import java.util.Set;

/** Reads a request's {@code payment_rules} object into {@link PaymentRules}. */
final class PaymentRulesInput {

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

    private PaymentRulesInput() {
    }
}
