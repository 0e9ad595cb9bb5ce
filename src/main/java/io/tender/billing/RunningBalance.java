package io.tender.billing;

import io.tender.api.ApiException;
import io.tender.api.ProblemCode;

/**
 * The running balance of a customer or an account: positive is owed by the customer, negative is credit. Currency
 * and balance are null until the merchant sets them (responses then omit them); a currency once set stays.
 */
record RunningBalance(String obligationId, String currency, Long balance, PaymentRules paymentRules) {

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

    /** The balance fields of a customer or account PATCH; null fields are left as they are. */
    record Patch(String currency, Long balance, Change<PaymentRules> paymentRules) {
    }
}
