package io.tender.billing;

import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

/** The account of a new bill: an existing one (by id or external_reference), or one to create first. */
sealed interface AccountInput permits AccountInput.Existing, NewAccount {

    record Existing(String reference) implements AccountInput {
    }

    static AccountInput read(JsonInput in, JsonNode node) {
        if (BillingInput.isObject(node, "account")) {
            return NewAccount.read(in.object("account", true), node.get("account"));
        }
        String reference = BillingInput.reference(in, node, "account", false,
                "an account id or external_reference, or an object with the fields of a new account");
        return reference == null ? null : new Existing(reference);
    }
}
