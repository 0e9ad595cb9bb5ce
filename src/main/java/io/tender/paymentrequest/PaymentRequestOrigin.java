package io.tender.paymentrequest;

import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.payment.CollectSessions;
import io.tender.payment.Payments;
import io.tender.payment.PaymentView;
import io.tender.payment.SessionOrigin;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * A request follows its session (decisions §7), inside the transaction that moves the session: paid when it
 * completes ({@code payment_request.paid}, with the payment), expired or cancelled with it, and failed when a push's
 * attempt is declined; a failed request's session is cancelled in that same transaction, so that its link can never
 * be paid later. A move told twice changes nothing the second time (the request has ended by then).
 *
 * @param sessions payments' facade, taken lazily: payments call every origin, so an origin cannot take it when it is
 *                 made
 */
@Component
record PaymentRequestOrigin(PaymentRequests requests, RequestRecorder recorder, Payments payments,
                            ObjectProvider<CollectSessions> sessions) implements SessionOrigin {

    static final String KIND = "payment_request";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public void moved(Caller owner, Move move) {
        PaymentRequest request = requests.findById(move.originId(), true).orElseThrow(() ->
                new IllegalStateException("Payment request " + move.originId() + " of a session is missing"));
        Optional<PaymentRequest.Transition> transition = request.follow(move, Timestamps.now());
        if (transition.isEmpty()) {
            return;
        }
        PaymentView payment = null;
        if (transition.get() == PaymentRequest.Transition.PAID) {
            payment = move.endedAttempt() != null ? move.endedAttempt()
                    : payments.find(owner, request.paymentId()).map(PaymentView::of).orElse(null);
        }
        recorder.changed(owner, request, transition.get(), payment);
        if (transition.get() == PaymentRequest.Transition.FAILED) {
            // Told again, with the session cancelled: the request has ended, so that changes nothing.
            sessions.getObject().cancel(owner, request.paymentSessionId());
        }
    }

    /**
     * What the checkout shows: the description as its title, no back link, and no Cancel button (the customer must not
     * cancel the merchant's request); a failed request's status, so that its page says so.
     */
    @Override
    public Optional<Presentation> present(String originId) {
        return requests.findById(originId, false).map(r -> new Presentation(r.description(), null, null, false,
                r.status() == PaymentRequest.Status.FAILED ? "failed" : null));
    }
}
