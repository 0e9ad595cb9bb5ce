package io.tender.checkout;

import java.util.Optional;

/**
 * What the hosted checkout asks of Collect: the session behind a {@code ckt_} id and the customer's actions on it.
 * The checkout session id is the customer's only credential (unguessable, decisions §6); no API key is involved.
 * Every method answers the session as it is after the action, so that the page can render or redirect from it.
 * Refusals the customer can act on (too many attempts, a session no longer open) come back as the session's state,
 * not as exceptions.
 */
public interface CheckoutPayments {

    /** The session for a checkout session id, or empty for an unknown id. */
    Optional<CheckoutSession> session(String checkoutSessionId);

    /**
     * Starts a payment attempt with the customer's method and its details (already checked on the page: Luhn,
     * expiry, phone format). The card number and security code go to the processor and nowhere else.
     */
    CheckoutSession startAttempt(String checkoutSessionId, MethodInput input);

    /** The customer's answer on a sandbox 3-D Secure or bank page for the attempt in flight. */
    CheckoutSession decide(String checkoutSessionId, ActionDecision decision);

    /**
     * The customer is back from the processor's 3-D Secure or bank page (live mode): asks the processor how the
     * attempt in flight ended, through the status query (the authorization is never sent again).
     */
    CheckoutSession returned(String checkoutSessionId);

    /** The customer gives up: the session is cancelled unless an attempt is in flight. */
    CheckoutSession cancel(String checkoutSessionId);

    /** The answers on a sandbox 3-D Secure page (approve, decline) or bank page (also cancel). */
    enum ActionDecision {
        APPROVE, DECLINE, CANCEL
    }
}
