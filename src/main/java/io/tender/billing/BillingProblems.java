package io.tender.billing;

import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
import io.tender.api.RejectionProblems;
import io.tender.billing.BillingRejection.*;
import org.springframework.stereotype.Component;

import static io.tender.api.ApiException.invalidState;

/** Billing's web edge: the problem each {@link BillingRejection} answers (decisions §1 and §4). */
@Component
class BillingProblems implements RejectionProblems<BillingRejection> {

    @Override
    public ApiException problem(BillingRejection rejection) {
        return switch (rejection) {
            case BillVoided r -> invalidState("A voided bill cannot be " + r.attempted() + ".");
            case BillPaid r -> invalidState("A paid bill cannot be voided.");
            case NoCurrency r -> ApiException.notPossible("This " + r.noun()
                    + " has no currency, so it cannot be paid against yet. Set its currency first.");
            case NoPaymentRules r -> ApiException.notPossible("This " + r.noun()
                    + " has no payment_rules, so it cannot be paid against. Set its payment_rules first.");
            case CurrencyMismatch r -> ApiException.notPossible("This " + r.noun() + " is in " + r.currency()
                    + "; a payment in " + r.paymentCurrency() + " cannot be applied to it.");
            case BelowMinimum r -> ApiException.notPossible("The payment of " + r.amount()
                    + " is below the min_amount of " + r.minimum() + " that this " + r.noun() + " accepts.");
            case AboveMaximum r -> ApiException.notPossible("The payment of " + r.amount()
                    + " is above the max_amount of " + r.maximum() + " that this " + r.noun() + " accepts.");
            case OverOutstanding r -> ApiException.notPossible("The payment of " + r.amount() + " is more than the "
                    + Math.max(r.outstanding(), 0) + " outstanding on this " + r.noun()
                    + ", and its payment_rules do not allow overpayment.");
            case UnderOutstanding r -> ApiException.notPossible("The payment of " + r.amount() + " is less than the "
                    + r.outstanding() + " outstanding on this " + r.noun()
                    + ", and its payment_rules do not allow underpayment.");
            case AmountPaidOverLimit r -> ApiException.notPossible(
                    "This payment would take the bill's amount_paid above " + r.limit() + ".");
            case BalanceUnderLimit r -> ApiException.notPossible("This payment would take the " + r.noun()
                    + "'s balance below -" + r.limit() + ".");
            case NothingOutstanding r -> ApiException.notPossible("Nothing is outstanding on this " + r.noun()
                    + ", so a session cannot default its amount. Give an amount.");
            case PaymentNotSucceeded r -> ApiException.notPossible(
                    "Only a succeeded payment can be applied; this one is " + r.status() + ".");
            case NotForObligation r -> ApiException.notPossible("This payment was not made for an obligation.");
            case ObligationMissing r -> ApiException.notPossible("The obligation of this payment does not exist.");
            case NeverApplied r -> ApiException.notPossible(
                    "This payment was never applied to its obligation, so there is nothing to reverse.");
            case ReversalAboveApplied r -> invalidState("A reversal of " + r.amount() + " would exceed the "
                    + r.applied() + " this payment applied (" + r.reversed() + " reversed already).");
            case CurrencyFixed r -> new ApiException(ProblemCode.CONFLICT,
                    "The currency of a " + r.noun() + " cannot change once set.");
            case AmountPaidAboveDue r -> ApiException.badRequest("amount_paid",
                    "must be at most amount_due (" + r.amountDue() + ")");
            case BalanceWithoutCurrency r -> ApiException.badRequest("currency", "is required when balance is given");
            case NotCustomerOfAccount r -> ApiException.badRequest("customer",
                    "is not the customer of the given account");
            case DuplicateReference r -> new ApiException(ProblemCode.RESOURCE_ALREADY_EXISTS,
                    "A " + r.noun() + " with this external_reference already exists.");
        };
    }
}
