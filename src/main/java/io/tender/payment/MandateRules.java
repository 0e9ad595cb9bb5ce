package io.tender.payment;

import io.tender.auth.Caller;

import java.time.LocalDate;
import java.util.function.Predicate;

/**
 * The rules a merchant's charge of a mandate ({@code next_in_series}, decisions §8) is held to, owned by the module
 * that owns mandates, which implements this; payments ask it before anything is recorded or sent.
 */
public interface MandateRules {

    /**
     * A charge as the merchant asked it: the customer, the mandate or the saved method (or both), the saved method's
     * own customer where one was named (payments read it), and the amount and currency.
     */
    record Charge(String customerId, String mandateId, String paymentMethodId, String methodCustomerId, long amount,
                  String currency) {
    }

    /** The charge allowed: its mandate, the saved method it charges and the date it is for in the mandate's zone. */
    record Allowed(String mandateId, String paymentMethodId, LocalDate chargeDate) {
    }

    /**
     * Locks the mandate the charge names until the caller's transaction ends and checks every rule over the charges
     * that did not fail, those in flight included, so that concurrent charges never take more than it allows.
     * {@code chargeable}: whether a saved method's card can be charged again. A refusal is thrown (a
     * {@link io.tender.api.Rejected} naming the rule), changing nothing.
     */
    Allowed allow(Caller caller, Charge charge, Predicate<String> chargeable);
}
