package io.tender.billing;

import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

import java.util.Map;
import java.util.Set;

/** A validated PATCH of an account; null fields are left as they are. */
record AccountPatch(String name, RunningBalance.Patch ledger, Map<String, String> metadata) {

    static final Set<String> FIELDS = Set.of("name", "currency", "balance", "payment_rules", "metadata");

    static AccountPatch parse(JsonNode body) {
        JsonInput in = JsonInput.body(body).allow(FIELDS);
        BillingInput.refuseNulls(in, body, "name");
        String name = in.line("name", false, 1, 255);
        RunningBalance.Patch ledger = RunningBalance.Patch.read(in, body);
        Map<String, String> metadata = in.metadata("metadata", true);
        in.throwIfInvalid();
        return new AccountPatch(name, ledger, metadata);
    }
}
