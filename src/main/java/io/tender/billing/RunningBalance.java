package io.tender.billing;

import io.tender.api.Currencies;
import io.tender.api.Ids;
import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

import java.util.Optional;

/**
 * The running balance of a customer or an account: positive is owed by the customer, negative is credit. Currency
 * and balance are null until the merchant sets them (responses then omit them); a currency once set stays.
 */
record RunningBalance(String obligationId, String currency, Long balance, PaymentRules paymentRules) {

    /** The balance of obligation {@code obligationId} before any currency, amount or payment rules are set. */
    static RunningBalance notSetUp(String obligationId) {
        return new RunningBalance(obligationId, null, null, null);
    }

    /** A new customer's or account's balance, as its create request set it up, under a new obligation id. */
    static RunningBalance open(Opening opening) {
        return new RunningBalance(Ids.newId(Obligation.PREFIX), opening.currency(), opening.balance(),
                opening.paymentRules());
    }

    long outstanding() {
        return balance == null ? 0 : balance;
    }

    /** A payment may not take the balance below {@code -MAX_BALANCE}, the most credit a balance holds. */
    Optional<BillingRejection> limitRejection(long amount, String noun) {
        return outstanding() - amount < -Amounts.MAX_BALANCE
                ? Optional.of(new BillingRejection.BalanceUnderLimit(noun, outstanding(), amount, Amounts.MAX_BALANCE))
                : Optional.empty();
    }

    /** The balance after a payment (checked with {@link #limitRejection} first). */
    RunningBalance applied(long amount) {
        return new RunningBalance(obligationId, currency, outstanding() - amount, paymentRules);
    }

    /** The balance after a refund took {@code amount} of a payment back: owed again, as before the payment. */
    RunningBalance reversed(long amount) {
        return new RunningBalance(obligationId, currency, outstanding() + amount, paymentRules);
    }

    /** A PATCH: the balance is replaced, a currency can be set once, payment rules are replaced or removed. */
    RunningBalance patched(Patch patch, String noun) {
        String nextCurrency = currency;
        if (patch.currency() != null && !patch.currency().equals(currency)) {
            if (currency != null) {
                throw new BillingRejection.CurrencyFixed(noun, currency, patch.currency()).thrown();
            }
            nextCurrency = patch.currency();
        }
        if (patch.balance() != null && nextCurrency == null) {
            throw new BillingRejection.BalanceWithoutCurrency().thrown();
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
            return new Opening(currency, balance, PaymentRulesInput.read(in));
        }
    }

    /** The balance fields of a customer or account PATCH; null fields are left as they are. */
    record Patch(String currency, Long balance, Change<PaymentRules> paymentRules) {

        /** Currency and balance can change but not be removed; payment rules can be removed with null. */
        static Patch read(JsonInput in, JsonNode body) {
            BillingInput.refuseNulls(in, body, "currency", "balance");
            String currency = Currencies.read(in, "currency", false);
            Long balance = in.integer("balance", false, -Amounts.MAX_BALANCE, Amounts.MAX_BALANCE);
            PaymentRules rules = PaymentRulesInput.read(in);
            Change<PaymentRules> rulesChange = rules != null || BillingInput.isNull(body, "payment_rules")
                    ? new Change<>(rules) : null;
            return new Patch(currency, balance, rulesChange);
        }
    }
}
