package io.tender.billing;

import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

import java.util.Map;
import java.util.Set;

/** A validated PATCH of a customer; null fields are left as they are (decisions §4). */
record CustomerPatch(String name, String email, Change<String> phone, RunningBalance.Patch ledger,
                     Map<String, String> metadata) {

    static final Set<String> FIELDS = Set.of("name", "email", "phone", "currency", "balance", "payment_rules", "metadata");

    static CustomerPatch parse(JsonNode body) {
        JsonInput in = JsonInput.body(body).allow(FIELDS);
        BillingInput.refuseNulls(in, body, "name", "email");
        String name = in.line("name", false, 1, 255);
        String email = BillingInput.email(in, false);
        String phone = BillingInput.phone(in);
        RunningBalance.Patch ledger = RunningBalance.Patch.read(in, body);
        Map<String, String> metadata = in.metadata("metadata", true);
        in.throwIfInvalid();
        Change<String> phoneChange = phone != null || BillingInput.isNull(body, "phone") ? new Change<>(phone) : null;
        return new CustomerPatch(name, email, phoneChange, ledger, metadata);
    }
}
