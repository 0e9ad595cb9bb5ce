package io.tender.subscription;

import io.tender.api.ApiException;
import io.tender.api.Currencies;
import io.tender.api.ProblemCode;
import io.tender.api.RejectionProblems;
import org.springframework.stereotype.Component;

import static io.tender.api.ApiException.invalidState;
import static io.tender.api.ApiException.notPossible;

/**
 * The series' web edge: the problem each {@link SeriesRejection} answers. A refused charge is 422
 * {@code operation_not_allowed} whose detail names the rule of decisions §8 and the values compared.
 */
@Component
class SeriesProblems implements RejectionProblems<SeriesRejection> {

    @Override
    public ApiException problem(SeriesRejection rejection) {
        return switch (rejection) {
            case SeriesRejection.MandateNotFound r -> new ApiException(ProblemCode.RESOURCE_NOT_FOUND, "No such mandate.");
            case SeriesRejection.SubscriptionNotFound r ->
                    new ApiException(ProblemCode.RESOURCE_NOT_FOUND, "No such subscription.");
            case SeriesRejection.MandateNotActive r -> notPossible("Mandate not active: " + r.mandateId() + " is "
                    + r.status() + " and charges nothing more.");
            case SeriesRejection.NoActiveMandate r -> notPossible("No active mandate: payment method "
                    + r.paymentMethodId() + " has no active mandate to charge it under.");
            case SeriesRejection.MandateOfSubscription r -> notPossible("Mandate of a subscription: " + r.mandateId()
                    + " is charged by subscription " + r.subscriptionId() + " on its dates; cancel the subscription"
                    + " to charge the customer otherwise.");
            case SeriesRejection.MandateOfAnotherMethod r -> notPossible("Mandate of another payment method: "
                    + r.mandateId() + " charges another payment method than " + r.paymentMethodId() + ".");
            case SeriesRejection.MethodOfAnotherCustomer r -> notPossible("Payment method of another customer: the"
                    + " payment method and its mandate belong to another customer than " + r.customerId() + ".");
            case SeriesRejection.CurrencyNotAllowed r -> notPossible("Currency not allowed: the mandate charges "
                    + r.currency() + ", not " + r.asked() + ".");
            case SeriesRejection.AmountNotFixedValue r -> notPossible("Amount not allowed: the mandate's amount is"
                    + " fixed at " + r.value() + "; " + r.asked() + " was asked.");
            case SeriesRejection.AmountOutsideRange r -> notPossible("Amount not allowed: the mandate charges "
                    + r.min() + " to " + r.max() + "; " + r.asked() + " was asked.");
            case SeriesRejection.NotAnExecutionDate r -> notPossible("Not an execution date: the mandate charges on"
                    + " its execution dates only, and " + r.today() + " (" + r.zone() + ") is not one"
                    + (r.next() == null ? "; it has no more." : "; the next is " + r.next() + "."));
            case SeriesRejection.OutsideMandateDates r -> notPossible("Outside the mandate's dates: the mandate charges"
                    + " from " + r.start() + (r.end() == null ? "" : " to " + r.end()) + ", and " + r.today() + " ("
                    + r.zone() + ") is " + (r.today().isBefore(r.start()) ? "before its start date."
                    : "after its end date."));
            case SeriesRejection.NoInstallmentLeft r -> notPossible("No installment left: " + r.mandateId()
                    + " allows " + r.installments() + " installment" + (r.installments() == 1 ? "" : "s")
                    + " after its first payment, and " + r.taken() + " " + (r.taken() == 1 ? "was" : "were")
                    + " charged or " + (r.taken() == 1 ? "is" : "are") + " being charged.");
            case SeriesRejection.AlreadyChargedOnDate r -> notPossible("Already charged on this execution date: the"
                    + " mandate takes one charge per execution date, and " + r.date() + " (" + r.zone() + ") has one"
                    + " that did not fail; a failed charge may be tried again.");
            case SeriesRejection.PeriodAmountExceeded r -> notPossible("Period limit max_amount exceeded: the"
                    + " mandate allows " + Currencies.display(r.max(), r.currency()) + " from " + r.start() + " to "
                    + r.end() + ", of which " + Currencies.display(r.taken(), r.currency()) + " is taken; "
                    + Currencies.display(r.asked(), r.currency()) + " more would exceed it.");
            case SeriesRejection.PeriodCountExceeded r -> notPossible("Period limit max_count exceeded: the mandate"
                    + " allows " + r.max() + " charge" + (r.max() == 1 ? "" : "s") + " from " + r.start() + " to "
                    + r.end() + ", and " + r.count() + " " + (r.count() == 1 ? "was" : "were") + " made.");
            case SeriesRejection.MandateNotCancellable r ->
                    invalidState("The mandate is " + r.status() + "; only an active mandate can be cancelled.");
            case SeriesRejection.SubscriptionNotCancellable r -> invalidState("The subscription is " + r.status()
                    + " and cannot be cancelled.");
            case SeriesRejection.SubscriptionNotResumable r -> invalidState("The subscription is " + r.status()
                    + "; only an unpaid subscription can be resumed.");
            case SeriesRejection.MandateEnded r -> invalidState("The subscription's mandate is " + r.status()
                    + "; the subscription cannot be resumed.");
            case SeriesRejection.ClockTooFar r -> ApiException.badRequest("to", "must be at most " + r.maxDays()
                    + " days after the subscription's date (" + r.today() + ")");
            case SeriesRejection.ClockBeingAdvanced r -> new ApiException(ProblemCode.CONFLICT, 409,
                    "Another advance of " + r.subscriptionId() + "'s test clock is running; advances of one"
                    + " subscription run one at a time. Retry after the time in Retry-After.",
                    java.util.List.of(), java.util.Map.of("Retry-After", "1"));
            case SeriesRejection.ClockMovesBack r -> invalidState("The subscription's test clock is at " + r.clock()
                    + "; a test clock never moves back (asked: " + r.asked() + ").");
        };
    }
}
