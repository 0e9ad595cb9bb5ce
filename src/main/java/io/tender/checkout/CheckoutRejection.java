package io.tender.checkout;

import io.tender.api.Rejection;

/**
 * Why the hosted checkout refuses a customer's action before payments are asked (decisions §6):
 * {@link CheckoutProblems} words it. The page shows the session again; the JSON API answers the problem.
 */
sealed interface CheckoutRejection extends Rejection {

    /** No session behind the checkout id (or a sandbox page asked of a live session). */
    record CheckoutNotFound() implements CheckoutRejection {
    }

    /** Which card details failed their check: the number (length, Luhn), the expiry, the security code. */
    record CardDetailsInvalid(boolean number, boolean expiry, boolean securityCode) implements CheckoutRejection {
    }

    /** Pay by bank without a bank chosen. */
    record BankNotChosen() implements CheckoutRejection {
    }

    /** A phone payment with a method approved elsewhere than on a phone. */
    record NotPhoneMethod() implements CheckoutRejection {
    }

    /** A checkout phone number not of the session's {@code country}. */
    record PhoneNotOfCountry(String country) implements CheckoutRejection {
    }

    /** The method is not offered by the session (or not the one the merchant selected). */
    record MethodNotOffered() implements CheckoutRejection {
    }

    /** A sandbox 3-D Secure or bank page answered for a payment not waiting for it. */
    record NotWaitingForPage() implements CheckoutRejection {
    }
}
