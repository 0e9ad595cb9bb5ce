package io.tender.billing;

import io.tender.api.Currencies;
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
        String name = in.string("name", false, 1, 255, null, null);
        String email = in.string("email", false, 3, 254, BillingInput.EMAIL, "must be an email address such as ada@example.com");
        String phone = in.string("phone", false, 3, 16, BillingInput.E164, "must be an E.164 phone number such as +27821234567");
        RunningBalance.Patch ledger = readLedger(in, body);
        Map<String, String> metadata = in.metadata("metadata", true);
        in.throwIfInvalid();
        return new CustomerPatch(name, email, phone != null || BillingInput.isNull(body, "phone") ? new Change<>(phone) : null,
                ledger, metadata);
    }

    /** The balance fields that customers and accounts share: currency (set once), balance, payment rules. */
    static RunningBalance.Patch readLedger(JsonInput in, JsonNode body) {
        BillingInput.refuseNulls(in, body, "currency", "balance");
        String currency = Currencies.read(in, "currency", false);
        Long balance = in.integer("balance", false, -Amounts.MAX_BALANCE, Amounts.MAX_BALANCE);
        PaymentRules rules = PaymentRules.read(in);
        Change<PaymentRules> rulesChange = rules != null || BillingInput.isNull(body, "payment_rules")
                ? new Change<>(rules) : null;
        return new RunningBalance.Patch(currency, balance, rulesChange);
    }
}
