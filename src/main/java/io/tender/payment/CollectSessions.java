package io.tender.payment;

import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.database.Transactions;
import io.tender.processor.PaymentMethodInput;
import org.springframework.stereotype.Service;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Payment sessions opened for Collect's other ways of asking for money (decisions §7): a payment request's link and
 * each visit to a payment page. Their modules call this; the customer then pays on the same hosted checkout, through
 * the same processor calls, and the session's moves come back to them through {@link SessionOrigin}.
 */
@Service
public record CollectSessions(PaymentSessionService service, PaymentAttempts attempts, PaymentViews views,
                              PaymentSessions sessions, Payments payments) {

    /**
     * A session to open. {@code amount} and {@code currency} may be null for a bill or account (what is outstanding,
     * in its currency); {@code visiblePaymentMethods} null offers every method; {@code returnUrl} (https, or http on
     * localhost in test mode) or null. The caller has checked every field; {@code expiresAt} is not held to the
     * API's 30 minutes to 7 days (a push request lives 2 minutes).
     */
    public record Opening(Long amount, String currency, PaymentObligations.Kind target, String targetReference,
                          String customerId, List<String> visiblePaymentMethods, String returnUrl, Instant expiresAt,
                          String externalReference, Map<String, String> metadata, SessionOrigin.Ref origin) {
    }

    /** Whether the phone number belongs to the country (E.164 with its dialling code), as {@link #push} requires. */
    public static boolean phoneOfCountry(String phoneNumber, String country) {
        return SessionOptions.phoneOfCountry(phoneNumber, country);
    }

    /**
     * Whether {@code url} may be a session's {@code return_url}: https, or in test mode also http on localhost (the
     * rule of {@code checkout_options.return_url}), so that an origin's own return URL is held to the same rule.
     */
    public static boolean returnUrlAllowed(String url, boolean testMode) {
        return SessionOptions.returnUrlAllowed(url, testMode);
    }

    /**
     * Opens the session in the caller's transaction, with {@code payment_session.created}. A bill or account is
     * checked as for {@code POST /collect/payment_sessions} (404, 409, 422 rejections).
     */
    public PaymentSessionView open(Caller caller, Opening opening) {
        Transactions.mandatory("opening a session for an origin");
        var options = SessionOptions.redirect(opening.returnUrl(), opening.visiblePaymentMethods() == null
                ? PaymentMethodType.WIRE : List.copyOf(opening.visiblePaymentMethods()));
        var command = new NewPaymentSession("one_time", opening.amount(), opening.currency(), "ZA", opening.target(),
                opening.targetReference(), opening.customerId(), opening.externalReference(), opening.metadata(),
                opening.expiresAt(), options, Timestamps.now());
        return views.view(service.open(caller, command, opening.origin()));
    }

    /**
     * Cancels an active session no attempt is in flight for, in the caller's transaction (409
     * {@code invalid_state_transition} otherwise). Its origin is told, like any move.
     */
    public PaymentSessionView cancel(Caller caller, String paymentSessionId) {
        Transactions.mandatory("cancelling an origin's session");
        PaymentSession session = sessions.get(caller, paymentSessionId, true);
        service.cancel(caller, session);
        return views.view(session);
    }

    /** Moves an active session's expiry, in the caller's transaction (409 when it is no longer active). */
    public PaymentSessionView reschedule(Caller caller, String paymentSessionId, Instant expiresAt) {
        Transactions.mandatory("moving a session's expiry");
        PaymentSession session = sessions.get(caller, paymentSessionId, true);
        service.reschedule(caller, session, expiresAt);
        return views.view(session);
    }

    /**
     * Holds the session's row until the caller's transaction ends (404 {@code payment_not_found} for none). An origin
     * changing itself and its session takes this first, then its own row: the order in which the session's own moves
     * take them (the session, then {@link SessionOrigin#moved}), so that the two never wait on each other.
     */
    public PaymentSessionView lock(Caller caller, String paymentSessionId) {
        Transactions.mandatory("locking a session");
        return views.view(sessions.get(caller, paymentSessionId, true));
    }

    /**
     * Whether {@link #cancel} would take the session now: active, and no attempt in flight. A page that offers the
     * cancel asks this, so it offers what the cancel then does.
     */
    public boolean cancellable(Caller caller, String paymentSessionId) {
        return sessions.find(caller, paymentSessionId, false).map(s -> service.cancelRefusal(s).isEmpty())
                .orElse(false);
    }

    public Optional<PaymentSessionView> find(Caller caller, String paymentSessionId) {
        return sessions.find(caller, paymentSessionId, false).map(views::view);
    }

    /**
     * Starts a bank-app attempt at once, without the customer on the checkout: a push payment request (decisions §7,
     * {@code capitec_pay}). Call it outside any transaction: it calls the processor. The attempt is usually still
     * {@code pending} (waiting for the approval in the app) when this returns; its end reaches the origin.
     * A refusal is thrown as {@link io.tender.api.Rejected} (this module's, the processor's or billing's); a push
     * payment request stores its problem's detail.
     */
    public PaymentView push(Caller caller, String paymentSessionId, String phoneNumber) {
        PaymentSession session = sessions.get(caller, paymentSessionId, false);
        if (!SessionOptions.phoneOfCountry(phoneNumber, session.country())) {
            throw new PaymentRejection.PushPhoneNotOfCountry(session.country()).thrown();
        }
        if (!session.options().visibleMethods().contains(PaymentMethodType.CAPITEC_PAY.wire())) {
            throw new PaymentRejection.PushNotOffered().thrown();
        }
        return PaymentView.of(attempts.start(session.id(),
                new PaymentMethodInput.Phone(PaymentMethodType.CAPITEC_PAY.wire(), phoneNumber), null));
    }

    /**
     * Asks the processor about an attempt waiting for the customer's approval in an app (a push nobody watches on the
     * checkout) and records its outcome once there is one; the origin hears of it like any move. Not in a
     * transaction: it calls the processor. An attempt that is not waiting, or another writer's newer state, is left
     * alone.
     */
    public void refresh(Caller caller, String paymentId) {
        payments.find(caller, paymentId).ifPresent(attempts::refresh);
    }
}
