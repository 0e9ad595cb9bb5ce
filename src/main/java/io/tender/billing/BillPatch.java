package io.tender.billing;

import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

import java.util.Map;
import java.util.Set;

/** A validated PATCH of a bill: {@code amount_paid} (replaces), payment rules (replace), metadata (merges). */
record BillPatch(Long amountPaid, PaymentRules paymentRules, Map<String, String> metadata) {

    static final Set<String> FIELDS = Set.of("amount_paid", "payment_rules", "metadata");

    static BillPatch parse(JsonNode body) {
        JsonInput in = JsonInput.body(body).allow(FIELDS);
        // A bill always has payment rules, so they can be replaced but not removed.
        BillingInput.refuseNulls(in, body, "amount_paid", "payment_rules");
        Long amountPaid = in.integer("amount_paid", false, 0, Amounts.MAX_PAYMENT);
        PaymentRules rules = PaymentRulesInput.read(in);
        Map<String, String> metadata = in.metadata("metadata", true);
        in.throwIfInvalid();
        return new BillPatch(amountPaid, rules, metadata);
    }
}
