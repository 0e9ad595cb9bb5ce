package io.tender.billing;

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
}
