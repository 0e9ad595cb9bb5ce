package io.tender.billing;

import io.tender.api.Currencies;
import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

import java.util.Set;

/** A validated {@code POST /billing/test_helpers/payments} body: exactly one of bill, account or customer. */
record TestPayment(BillingResource target, String reference, long amount, String currency) {

    static final Set<String> FIELDS = Set.of("bill", "account", "customer", "amount", "currency");

    static TestPayment parse(JsonNode body) {
        JsonInput in = JsonInput.body(body).allow(FIELDS);
        BillingResource target = null;
        String reference = null;
        int named = 0;
        for (BillingResource resource : BillingResource.values()) {
            if (in.has(resource.noun()) && !BillingInput.isNull(body, resource.noun())) {
                named++;
            }
            String value = BillingInput.reference(in, body, resource.noun(), false,
                    "a " + resource.noun() + " id or external_reference");
            if (value != null) {
                target = resource;
                reference = value;
            }
        }
        in.check(named <= 1, "bill", "give only one of bill, account or customer");
        in.check(named >= 1, "bill", "one of bill, account or customer is required");
        Long amount = in.integer("amount", true, 1, Amounts.MAX_PAYMENT);
        String currency = Currencies.read(in, "currency", true);
        in.throwIfInvalid();
        return new TestPayment(target, reference, amount, currency);
    }
}
