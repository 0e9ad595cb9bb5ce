package io.tender.billing;

import io.tender.api.Currencies;
import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

import java.util.Map;
import java.util.Set;

/** A validated create-customer body, at the top level or nested in an account or bill (decisions §4). */
record NewCustomer(String externalReference, String name, String email, String phone, String currency, Long balance,
                   PaymentRules paymentRules, Map<String, String> metadata) implements CustomerInput {

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
        String name = in.string("name", true, 1, 255, null, null);
        String email = in.string("email", true, 3, 254, BillingInput.EMAIL, "must be an email address such as ada@example.com");
        String phone = in.string("phone", false, 3, 16, BillingInput.E164, "must be an E.164 phone number such as +27821234567");
        String currency = Currencies.read(in, "currency", false);
        Long balance = in.integer("balance", false, -Amounts.MAX_BALANCE, Amounts.MAX_BALANCE);
        in.check(balance == null || currency != null, "currency", "is required when balance is given");
        PaymentRules rules = PaymentRules.read(in);
        Map<String, String> metadata = in.metadata("metadata");
        return new NewCustomer(reference, name, email, phone, currency, balance, rules, metadata);
    }
}
