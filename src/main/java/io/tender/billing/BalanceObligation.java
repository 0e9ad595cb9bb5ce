package io.tender.billing;

import java.util.Optional;

/** An obligation that is a running balance: a customer's or an account's. */
sealed interface BalanceObligation extends Obligation permits Customer, Account {

    RunningBalance ledger();

    @Override
    default String obligationId() {
        return ledger().obligationId();
    }

    @Override
    default String currency() {
        return ledger().currency();
    }

    @Override
    default PaymentRules paymentRules() {
        return ledger().paymentRules();
    }

    @Override
    default long outstanding() {
        return ledger().outstanding();
    }

    /** A balance takes payments in any state. */
    @Override
    default Optional<BillingRejection> stateRejection() {
        return Optional.empty();
    }

    @Override
    default Optional<BillingRejection> limitRejection(long amount) {
        return ledger().limitRejection(amount, noun());
    }
}
