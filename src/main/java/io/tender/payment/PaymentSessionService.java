package io.tender.payment;

import io.tender.api.Ids;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.StoredResponse;
import io.tender.outbox.Outbox;
import org.springframework.stereotype.Service;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The payment session's own moves (decisions §6), each its transaction: open one for a bill, an account or an amount,
 * read it, cancel it, move its expiry (a payment request's), and the merchant's next method after a failed attempt
 * ({@code complete}). Attempts are {@link PaymentAttempts}'; the end of an expired session is {@link PaymentRecovery}'s.
 */
@Service
record PaymentSessionService(PaymentSessions sessions, PaymentObligations obligations, IdempotentRequests idempotent,
                             Outbox outbox, PaymentViews views, SessionMoves moves) {

    StoredResponse create(Caller caller, KeyedRequest request, NewPaymentSession command) {
        return idempotent.execute(caller, request, () -> {
            if (command.type().equals(PaymentSession.FIRST_IN_SERIES)
                    && !obligations.customerExists(caller, command.customer())) {
                throw new PaymentRejection.CustomerNotFound(command.customer()).thrown();
            }
            return new IdempotentRequests.Result(201, views.view(open(caller, command, null)));
        });
    }

    /**
     * Opens a session in the caller's transaction: checks its bill or account, records it and its
     * {@code payment_session.created}. {@code origin}: the payment request or page visit it is for, or null.
     */
    PaymentSession open(Caller caller, NewPaymentSession command, SessionOrigin.Ref origin) {
        long amount = command.amount() == null ? 0 : command.amount();
        String currency = command.currency();
        String obligationId = null;
        String customerId = command.customer();
        if (command.target() != null) {
            var target = obligations.check(caller, command.target(), command.targetReference(), command.amount(),
                    command.currency());
            amount = target.amount();
            currency = target.currency();
            obligationId = target.obligationId();
            customerId = customerId != null ? customerId : target.customerId();
        }
        // The default expiry was counted from the request's time: the session is created at that time too.
        Instant now = command.requestedAt();
        PaymentSession session = PaymentSession.opened(new PaymentSession.Terms(Ids.newId("ps_"),
                caller.merchantId(), caller.mode(), Ids.newPublicId("ckt_"), command.type(), amount, currency,
                command.country(), customerId, obligationId, command.options().checkoutOptions().returnUrl(),
                command.externalReference(), command.metadata(), now), command.options(), command.expiresAt())
                .withOrigin(origin);
        moves.opened(caller, session);
        return session;
    }

    PaymentSessionView get(Caller caller, String id) {
        return views.view(sessions.get(caller, id, false));
    }

    /** {@code POST …/cancel}: ends an active session no attempt is in flight for. */
    StoredResponse cancel(Caller caller, KeyedRequest request, String id) {
        return idempotent.execute(caller, request, () -> {
            PaymentSession session = sessions.get(caller, id, true);
            cancel(caller, session);
            return new IdempotentRequests.Result(200, views.view(session));
        });
    }

    /** Cancels a locked session inside the caller's transaction. */
    void cancel(Caller caller, PaymentSession session) {
        cancelRefusal(session).ifPresent(refusal -> {
            throw refusal.thrown();
        });
        moves.moved(caller, session, session.cancel(Timestamps.now()), null);
    }

    /** Why {@link #cancel} refuses the session now (not active, or an attempt in flight); empty when it takes it. */
    Optional<PaymentRejection> cancelRefusal(PaymentSession session) {
        if (session.status() != PaymentSession.Status.ACTIVE) {
            return Optional.of(new PaymentRejection.SessionNotActive(session.status().wire()));
        }
        boolean inFlight = moves.latest(session).filter(p -> p.status() == PaymentStatus.PENDING).isPresent();
        return inFlight ? Optional.of(new PaymentRejection.AttemptInFlight()) : Optional.empty();
    }

    /** Moves an active session's expiry (its payment request's changed) inside the caller's transaction. */
    void reschedule(Caller caller, PaymentSession session, Instant expiresAt) {
        if (session.status() != PaymentSession.Status.ACTIVE) {
            throw new PaymentRejection.SessionNotActive(session.status().wire()).thrown();
        }
        moves.recorded(caller, session, session.reschedule(expiresAt, Timestamps.now()));
    }

    /** {@code POST …/complete}: the merchant's next method, after an attempt with {@code payment_method_selection: merchant}. */
    StoredResponse complete(Caller caller, KeyedRequest request, String id, String selected, List<String> visible) {
        return idempotent.execute(caller, request, () -> {
            PaymentSession session = sessions.get(caller, id, true);
            if (session.status() != PaymentSession.Status.ACTIVE || !session.waitingForMerchant()) {
                throw new PaymentRejection.NotWaitingForSelection().thrown();
            }
            moves.recorded(caller, session, session.completeSelection(selected, visible, Timestamps.now()));
            return new IdempotentRequests.Result(200, views.view(session));
        });
    }
}
