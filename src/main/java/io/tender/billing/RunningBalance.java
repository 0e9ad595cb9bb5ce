package io.tender.billing;

import io.tender.api.ApiException;
import io.tender.api.Currencies;
import io.tender.api.Ids;
import io.tender.api.JsonInput;
import io.tender.api.ProblemCode;
import tools.jackson.databind.JsonNode;

/**
 * The running balance of a customer or an account: positive is owed by the customer, negative is credit. Currency
 * and balance are null until the merchant sets them (responses then omit them); a currency once set stays.
 */
record RunningBalance(String obligationId, String currency, Long balance, PaymentRules paymentRules) {

    /** A new customer's or account's balance, as its create request set it up, under a new obligation id. */
    static RunningBalance open(Opening opening) {
        return new RunningBalance(Ids.newId(Obligation.PREFIX), opening.currency(), opening.balance(),
                opening.paymentRules());
    }

    long outstanding() {
        return balance == null ? 0 : balance;
    }

    RunningBalance applied(long amount, String noun) {
        long next = outstanding() - amount;
        if (next < -Amounts.MAX_BALANCE) {
            throw ApiException.notPossible("This payment would take the " + noun + "'s balance below -"
                    + Amounts.MAX_BALANCE + ".");
        }
        return new RunningBalance(obligationId, currency, next, paymentRules);
    }

    /** A PATCH: the balance is replaced, a currency can be set once, payment rules are replaced or removed. */
    RunningBalance patched(Patch patch, String noun) {
        String nextCurrency = currency;
        if (patch.currency() != null && !patch.currency().equals(currency)) {
            if (currency != null) {
                throw new ApiException(ProblemCode.CONFLICT, "The currency of a " + noun + " cannot change once set.");
            }
            nextCurrency = patch.currency();
        }
        if (patch.balance() != null && nextCurrency == null) {
            throw ApiException.badRequest("currency", "is required when balance is given");
        }
        return new RunningBalance(obligationId, nextCurrency, patch.balance() != null ? patch.balance() : balance,
                Change.apply(patch.paymentRules(), paymentRules));
    }

    /** The balance fields of a create request: a balance needs a currency; rules are optional. */
    record Opening(String currency, Long balance, PaymentRules paymentRules) {

        static Opening read(JsonInput in) {
            String currency = Currencies.read(in, "currency", false);
            Long balance = in.integer("balance", false, -Amounts.MAX_BALANCE, Amounts.MAX_BALANCE);
            in.check(balance == null || currency != null, "currency", "is required when balance is given");
            return new Opening(currency, balance, PaymentRules.read(in));
        }
    }

    /** The balance fields of a customer or account PATCH; null fields are left as they are. */
    record Patch(String currency, Long balance, Change<PaymentRules> paymentRules) {

        /** Currency and balance can change but not be removed; payment rules can be removed with null. */
        static Patch read(JsonInput in, JsonNode body) {
            BillingInput.refuseNulls(in, body, "currency", "balance");
            String currency = Currencies.read(in, "currency", false);
            Long balance = in.integer("balance", false, -Amounts.MAX_BALANCE, Amounts.MAX_BALANCE);
            PaymentRules rules = PaymentRules.read(in);
            Change<PaymentRules> rulesChange = rules != null || BillingInput.isNull(body, "payment_rules")
                    ? new Change<>(rules) : null;
            return new Patch(currency, balance, rulesChange);
        }
    }
}
