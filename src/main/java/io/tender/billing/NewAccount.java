package io.tender.billing;

import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

import java.util.Map;
import java.util.Set;

/** A validated create-account body, at the top level or nested in a bill. */
record NewAccount(CustomerInput customer, String externalReference, String name, RunningBalance.Opening opening,
                  Map<String, String> metadata) implements AccountInput {

    static final Set<String> FIELDS = Set.of("customer", "external_reference", "name", "currency", "balance",
            "payment_rules", "metadata");

    static NewAccount parse(JsonNode body) {
        JsonInput in = JsonInput.body(body);
        NewAccount account = read(in, body);
        in.throwIfInvalid();
        return account;
    }

    /** Reads the fields of {@code in} (whose JSON is {@code node}); the caller throws the collected errors. */
    static NewAccount read(JsonInput in, JsonNode node) {
        in.allow(FIELDS);
        CustomerInput customer = CustomerInput.read(in, node);
        String reference = BillingResource.ACCOUNT.readReference(in);
        String name = in.line("name", true, 1, 255);
        RunningBalance.Opening opening = RunningBalance.Opening.read(in);
        Map<String, String> metadata = in.metadata("metadata");
        return new NewAccount(customer, reference, name, opening, metadata);
    }
}
