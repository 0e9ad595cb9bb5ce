package io.tender.subscription;

import io.tender.api.Rejection;

import java.time.LocalDate;

/**
 * Why a mandate, a charge of one ({@code next_in_series}) or a subscription request is refused, with what was
 * compared (decisions §8); {@link SeriesProblems} words it. A refused charge sends nothing to the processor.
 */
sealed interface SeriesRejection extends Rejection {

    record MandateNotFound() implements SeriesRejection {
    }

    record SubscriptionNotFound() implements SeriesRejection {
    }

    // ---- a charge's rules (422, naming the rule) ---------------------------------------------------------------

    /** The mandate is {@code status} (cancelled or completed): it charges nothing more. */
    record MandateNotActive(String mandateId, String status) implements SeriesRejection {
    }

    /** The saved method has no active mandate to charge it under. */
    record NoActiveMandate(String paymentMethodId) implements SeriesRejection {
    }

    /** A subscription's mandate is charged by its subscription only: a charge of the merchant's would pay twice. */
    record MandateOfSubscription(String mandateId, String subscriptionId) implements SeriesRejection {
    }

    /** {@code payment_method_id} and {@code mandate_id} name different methods. */
    record MandateOfAnotherMethod(String mandateId, String paymentMethodId) implements SeriesRejection {
    }

    /** The saved method (and its mandate) belong to another customer than {@code customer_id}. */
    record MethodOfAnotherCustomer(String customerId) implements SeriesRejection {
    }

    /** A charge in {@code asked} of a mandate in {@code currency}. */
    record CurrencyNotAllowed(String currency, String asked) implements SeriesRejection {
    }

    /** A fixed mandate charges exactly {@code value}. */
    record AmountNotFixedValue(long value, long asked) implements SeriesRejection {
    }

    /** A variable mandate charges from {@code min} to {@code max}. */
    record AmountOutsideRange(long min, long max, long asked) implements SeriesRejection {
    }

    /** A scheduled or installment mandate charges on its execution dates only; {@code next} is the next one, or null. */
    record NotAnExecutionDate(LocalDate today, LocalDate next, String zone) implements SeriesRejection {
    }

    /**
     * An {@code on_demand} mandate charges from its start date to its end date (both inclusive; {@code end} null for
     * none) only: the dates the customer agreed to.
     */
    record OutsideMandateDates(LocalDate today, LocalDate start, LocalDate end, String zone)
            implements SeriesRejection {
    }

    /**
     * An installment mandate allows {@code installments} charges after its first payment, and {@code taken} of them
     * did not fail (those in flight included).
     */
    record NoInstallmentLeft(String mandateId, int installments, int taken) implements SeriesRejection {
    }

    /** A scheduled or installment mandate takes one charge per execution date, and {@code date} has one already. */
    record AlreadyChargedOnDate(LocalDate date, String zone) implements SeriesRejection {
    }

    /** The period from {@code start} to {@code end} (inclusive) already took {@code taken} of {@code max}. */
    record PeriodAmountExceeded(long max, long taken, long asked, LocalDate start, LocalDate end, String currency)
            implements SeriesRejection {
    }

    /** The period from {@code start} to {@code end} (inclusive) already had {@code count} of {@code max} charges. */
    record PeriodCountExceeded(int max, int count, LocalDate start, LocalDate end) implements SeriesRejection {
    }

    // ---- state changes (409) --------------------------------------------------------------------------------

    /** Only an active mandate is cancelled. */
    record MandateNotCancellable(String status) implements SeriesRejection {
    }

    /** A subscription that is {@code status} cannot be cancelled (cancelled, completed). */
    record SubscriptionNotCancellable(String status) implements SeriesRejection {
    }

    /** Only an {@code unpaid} subscription is resumed. */
    record SubscriptionNotResumable(String status) implements SeriesRejection {
    }

    /** An unpaid subscription whose mandate is {@code status} (cancelled, or completed past its end) cannot resume. */
    record MandateEnded(String status) implements SeriesRejection {
    }

    /** A test clock moves at most {@code maxDays} past {@code today} in one advance. */
    record ClockTooFar(LocalDate today, LocalDate asked, int maxDays) implements SeriesRejection {
    }

    /** Another advance of the subscription's test clock is running (advances of one subscription run one at a time). */
    record ClockBeingAdvanced(String subscriptionId) implements SeriesRejection {
    }

    /** A test clock at {@code clock} is never moved back to {@code asked}. */
    record ClockMovesBack(LocalDate clock, LocalDate asked) implements SeriesRejection {
    }
}
