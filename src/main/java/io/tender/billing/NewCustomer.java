package io.tender.billing;

import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

import java.util.Map;
import java.util.Set;

/** A validated create-customer body, at the top level or nested in an account or bill (decisions §4). */
record NewCustomer(String externalReference, String name, String email, String phone, RunningBalance.Opening opening,
                   Map<String, String> metadata) implements CustomerInput {

    static final Set<String> FIELDS = Set.of("external_reference", "name", "email", "phone", "currency", "balance",
            "payment_rules", "metadata");

    static NewCustomer parse(JsonNode body) {
        JsonInput in = JsonInput.body(body);
        NewCustomer customer = read(in);
        in.throwIfInvalid();
        return customer;
    }

    /** Reads the fields of {@code in}, collecting errors there; the caller throws them. */
    static NewCustomer read(JsonInput in) {
        in.allow(FIELDS);
        String reference = BillingResource.CUSTOMER.readReference(in);
        String name = in.line("name", true, 1, 255);
        String email = BillingInput.email(in, true);
        String phone = BillingInput.phone(in);
        RunningBalance.Opening opening = RunningBalance.Opening.read(in);
        Map<String, String> metadata = in.metadata("metadata");
        return new NewCustomer(reference, name, email, phone, opening, metadata);
    }
}
