package io.tender.payment;

import io.tender.auth.Caller;
import io.tender.outbox.Outbox;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;

/**
 * How a payment session's moves are written and told (decisions §6, §7): the session, its event, and its origin (a
 * payment request, a payment page visit: {@link SessionOrigin}), which hears of each move in the transaction writing
 * it. Also what every flow reads of a session: its latest attempt.
 */
@Component
record SessionMoves(PaymentSessions sessions, Payments payments, Outbox outbox, PaymentViews views,
                    List<SessionOrigin> origins) {

    /** The session's latest attempt, if it has one. */
    Optional<Payment> latest(PaymentSession session) {
        return session.paymentId() == null ? Optional.empty() : payments.find(session.paymentId());
    }

    /** Records a session just opened and its {@code payment_session.created}, in the caller's transaction. */
    void opened(Caller owner, PaymentSession session) {
        sessions.insert(session);
        outbox.append(owner, views.sessionEvent(session, PaymentSession.Transition.CREATED.eventType()));
    }

    /** Writes a session's move and its event in the caller's transaction (its origin waits for an ending move). */
    void recorded(Caller owner, PaymentSession session, PaymentSession.Transition transition) {
        sessions.update(session);
        outbox.append(owner, views.sessionEvent(session, transition.eventType()));
    }

    /** Appends a session's move to the outbox in the caller's transaction and tells its origin. */
    void moved(Caller owner, PaymentSession session, PaymentSession.Transition transition, Payment ended) {
        recorded(owner, session, transition);
        tellOrigin(owner, session, ended);
    }

    /**
     * Tells a session's origin (a payment request, a payment page visit) how the session moved, in the transaction
     * writing the move. {@code payment}: the attempt that ended with this move, or null.
     */
    void tellOrigin(Caller owner, PaymentSession session, Payment payment) {
        if (session.origin() == null) {
            return;
        }
        SessionOrigin origin = origin(session.origin().kind())
                .orElseThrow(() -> new IllegalStateException("No SessionOrigin for " + session.origin().kind()));
        boolean ended = payment != null && payment.status().isFinal() && payment.id().equals(session.paymentId());
        origin.moved(owner, new SessionOrigin.Move(session.origin().id(), views.view(session),
                ended ? PaymentView.of(payment) : null));
    }

    /** What the checkout shows of a session's origin, if it has one. */
    Optional<SessionOrigin.Presentation> presentOrigin(PaymentSession session) {
        return Optional.ofNullable(session.origin()).flatMap(o -> origin(o.kind())
                .flatMap(origin -> origin.present(o.id())));
    }

    /** The origin module that opened sessions of {@code kind}, if one is there. */
    private Optional<SessionOrigin> origin(String kind) {
        return origins.stream().filter(o -> o.kind().equals(kind)).findFirst();
    }
}
