package io.tender.payment;

import io.tender.auth.Caller;

import java.util.Optional;

/**
 * What opened a payment session besides the merchant's own {@code POST /collect/payment_sessions}: a payment
 * request's link or one visit to a payment page (decisions §7). Those modules implement this, one bean per
 * {@link #kind()}; payments only call it, so the dependency goes one way, as with {@link PaymentObligations}.
 */
public interface SessionOrigin {

    /** {@code payment_request} or {@code payment_page}: stored with the session. */
    String kind();

    /**
     * A session of this origin moved: an attempt ended ({@link Move#endedAttempt()}), or the session completed,
     * expired or was cancelled. Runs inside the transaction that records the move, with the session's row locked;
     * an exception rolls the move back. The same ended attempt may be told more than once (a recovery after a lost
     * answer): key what it records by the payment's id.
     */
    void moved(Caller owner, Move move);

    /** What the checkout shows of the origin above the amount; empty when there is nothing to show. */
    default Optional<Presentation> present(String originId) {
        return Optional.empty();
    }

    /** A session's origin as stored with it. */
    record Ref(String kind, String id) {
    }

    /**
     * @param originId     the {@code pr_} or {@code pp_…} id the session was opened with
     * @param session      the session as GET shows it, after the move
     * @param endedAttempt the attempt this move ended (succeeded, failed or expired), or null
     */
    record Move(String originId, PaymentSessionView session, PaymentView endedAttempt) {
    }

    /**
     * @param title       what is being paid for (a request's description, a page's title), or null
     * @param description more about it, or null
     * @param backUrl     where the checkout's back link leads (a page's own URL), or null for no back link
     * @param cancellable whether the checkout offers the customer a Cancel button (ending the session)
     * @param status      the origin's own status where the result page words it differently from the session's (a
     *                    payment request's {@code failed}: its session is cancelled, yet nobody cancelled it), or null
     */
    record Presentation(String title, String description, String backUrl, boolean cancellable, String status) {

        public Presentation(String title, String description, String backUrl, boolean cancellable) {
            this(title, description, backUrl, cancellable, null);
        }
    }
}
