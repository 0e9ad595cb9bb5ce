package io.tender.billing;

import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

/** The customer of a new account: an existing one (by id or external_reference), or one to create first. */
sealed interface CustomerInput permits CustomerInput.Existing, NewCustomer {

    record Existing(String reference) implements CustomerInput {
    }

    static CustomerInput read(JsonInput in, JsonNode node) {
        if (BillingInput.isObject(node, "customer")) {
            return NewCustomer.read(in.object("customer", true));
        }
        String reference = BillingInput.reference(in, node, "customer", true,
                "a customer id or external_reference, or an object with the fields of a new customer");
        return reference == null ? null : new Existing(reference);
    }
}
