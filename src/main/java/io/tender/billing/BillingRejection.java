package io.tender.billing;

import io.tender.api.Rejected;
import io.tender.api.Rejection;

/**
 * Why billing refuses a payment or a change: which rule, with the values it compared. The domain returns these (or
 * throws them in a {@link Rejected} where a transaction must roll back); {@link BillingProblems} alone words them
 * for the client.
 */
sealed interface BillingRejection extends Rejection {

    // A payment, checked in this order (ObligationPayments): state, currency and rules set, currency, rules, limits.

    /** Nothing moves a voided bill: {@code attempted} is what was asked ("paid", "changed"). */
    record BillVoided(String attempted) implements BillingRejection {
    }

    record NoCurrency(String noun) implements BillingRejection {
    }

    record NoPaymentRules(String noun) implements BillingRejection {
    }

    record CurrencyMismatch(String noun, String currency, String paymentCurrency) implements BillingRejection {
    }

    record BelowMinimum(String noun, long amount, long minimum) implements BillingRejection {
    }

    record AboveMaximum(String noun, long amount, long maximum) implements BillingRejection {
    }

    /** An overpayment the rules do not allow; {@code outstanding} may be below zero (a credit). */
    record OverOutstanding(String noun, long amount, long outstanding) implements BillingRejection {
    }

    /** An underpayment (partial payment) the rules do not allow. */
    record UnderOutstanding(String noun, long amount, long outstanding) implements BillingRejection {
    }

    /** The payment would take a bill's {@code amount_paid} above {@code limit}. */
    record AmountPaidOverLimit(long amountPaid, long amount, long limit) implements BillingRejection {
    }

    /** The payment would take a balance below {@code -limit}. */
    record BalanceUnderLimit(String noun, long balance, long amount, long limit) implements BillingRejection {
    }

    /** A session without an amount defaults to what is outstanding, and nothing is. */
    record NothingOutstanding(String noun, long outstanding) implements BillingRejection {
    }

    record PaymentNotSucceeded(String status) implements BillingRejection {
    }

    record NotForObligation() implements BillingRejection {
    }

    record ObligationMissing() implements BillingRejection {
    }

    // A refund's reversal (ObligationPayments.reverseRefunded): returned for the operator, as the money went back.

    /** The payment was made for an obligation but never applied to it, so a refund has nothing to reverse. */
    record NeverApplied(String paymentId) implements BillingRejection {
    }

    /** A refund would reverse more than the payment applied: {@code reversed} so far, {@code amount} now. */
    record ReversalAboveApplied(String paymentId, long applied, long reversed, long amount)
            implements BillingRejection {
    }

    // Changes

    record BillPaid() implements BillingRejection {
    }

    record CurrencyFixed(String noun, String currency, String requested) implements BillingRejection {
    }

    record AmountPaidAboveDue(long amountPaid, long amountDue) implements BillingRejection {
    }

    record BalanceWithoutCurrency() implements BillingRejection {
    }

    record NotCustomerOfAccount() implements BillingRejection {
    }

    // Resources

    record DuplicateReference(String noun) implements BillingRejection {
    }
}
