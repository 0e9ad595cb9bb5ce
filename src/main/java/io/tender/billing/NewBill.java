package io.tender.billing;

import io.tender.api.Currencies;
import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

import java.time.LocalDate;
import java.util.Map;
import java.util.Set;

/**
 * A validated create-bill body: raised against an account (existing, or created with its customer first), or
 * directly against a customer; both may be given when they belong together.
 */
record NewBill(AccountInput account, String customer, String externalReference, String currency, long amountDue,
               LocalDate billDate, LocalDate dueDate, PaymentRules paymentRules, Map<String, String> metadata) {

    static final Set<String> FIELDS = Set.of("account", "customer", "external_reference", "currency", "amount_due",
            "bill_date", "due_date", "payment_rules", "metadata");

    /** {@code today} is the default {@code bill_date}. */
    static NewBill parse(JsonNode body, LocalDate today) {
        JsonInput in = JsonInput.body(body).allow(FIELDS);
        AccountInput account = AccountInput.read(in, body);
        String customer = BillingInput.reference(in, body, "customer", false, "a customer id or external_reference");
        // A present but invalid account or customer has its own error already.
        boolean named = presentNotNull(in, body, "account") || presentNotNull(in, body, "customer");
        in.check(account != null || customer != null || named, "account", "is required unless customer is given");
        String reference = BillingResource.BILL.readReference(in);
        String currency = Currencies.read(in, "currency", true);
        Long amountDue = in.integer("amount_due", true, 1, Amounts.MAX_PAYMENT);
        LocalDate billDate = BillingInput.date(in, "bill_date", false);
        LocalDate dueDate = BillingInput.date(in, "due_date", true);
        LocalDate effectiveBillDate = billDate == null ? today : billDate;
        if (dueDate != null && (billDate != null || !presentNotNull(in, body, "bill_date"))) {
            in.check(!dueDate.isBefore(effectiveBillDate), "due_date", "must not be before bill_date ("
                    + effectiveBillDate + ")");
        }
        PaymentRules rules = PaymentRulesInput.read(in);
        Map<String, String> metadata = in.metadata("metadata");
        in.throwIfInvalid();
        return new NewBill(account, customer, reference, currency, amountDue, effectiveBillDate, dueDate,
                rules == null ? PaymentRules.BILL_DEFAULT : rules, metadata);
    }

    private static boolean presentNotNull(JsonInput in, JsonNode body, String field) {
        return in.has(field) && !BillingInput.isNull(body, field);
    }
}
