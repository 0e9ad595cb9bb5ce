package io.tender.payment;

import io.tender.auth.Caller;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import io.tender.processor.PaymentMethodInput;
import io.tender.processor.PaymentProcessors;
import io.tender.processor.sandbox.SandboxProcessor;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Payments' entry for the hosted checkout (the {@code checkout} module), by a session's unguessable {@code ckt_} id
 * and with no API key (decisions §6): a session as its page shows it ({@link Session}, with its latest
 * {@link Attempt}), and the customer's actions on it, each through the flow the API's own requests take. A refusal is
 * thrown as a {@link io.tender.api.Rejected} (this module's, the processor's or billing's) and changes nothing.
 * A charge without the customer ({@code next_in_series}) has no checkout: its session is never found here.
 */
@Service
public record CheckoutSessions(PaymentSessions sessions, PaymentAttempts attempts,
                               PaymentSessionService sessionService, SessionMoves moves, SeriesTerms terms,
                               PaymentProcessors processors, Merchants merchants, TransactionTemplate tx) {

    /**
     * A session as its checkout page needs it.
     *
     * @param merchantName      the merchant's display name, or null when it has none
     * @param selectedMethod    the method the merchant chose ({@code selected_payment_method}), or null
     * @param presentationMode  {@code redirect}, {@code embedded_modal} or {@code embedded_inline}
     * @param prefilledPhones   the phone numbers the merchant gave per method ({@code payment_method_options})
     * @param latest            the latest attempt, or null before the first
     * @param origin            what the session was opened for besides the merchant's own checkout, or null
     * @param seriesTerms       a {@code first_in_series} session's terms in plain words, which the customer agrees to
     *                          by paying; null for other sessions
     */
    public record Session(String id, String checkoutSessionId, Mode mode, String merchantName, long amount,
                          String currency, String country, List<PaymentMethodType> visibleMethods,
                          PaymentMethodType selectedMethod, String presentationMode, boolean displayPayButton,
                          boolean merchantSelection, String returnUrl, Map<PaymentMethodType, String> prefilledPhones,
                          Status status, boolean reserved, int attempts, int maxAttempts, boolean waitingForMerchant,
                          Instant expiresAt, Attempt latest, Origin origin, String seriesTerms) {

        /** Whether {@code type} is offered now (the merchant's choice narrows the methods to one). */
        public boolean offers(PaymentMethodType type) {
            return visibleMethods.contains(type) && (!merchantSelection || selectedMethod == null
                    || selectedMethod == type);
        }
    }

    /** Where a session stands. */
    public enum Status {
        ACTIVE, COMPLETED, EXPIRED, CANCELLED
    }

    /**
     * A session's latest attempt.
     *
     * @param action      while the customer has to act: {@code three_d_secure}, {@code bank_login} or
     *                    {@code app_approval}; else null
     * @param redirectUrl the processor's page for that action (null for the sandbox's own pages and for apps)
     */
    public record Attempt(String paymentId, PaymentStatus status, String action, String redirectUrl,
                          PaymentError error, Map<String, Object> paymentMethodDetails) {

        /** The method's type as {@code payment_method_details} names it, or null. */
        public String method() {
            return paymentMethodDetails == null ? null : String.valueOf(paymentMethodDetails.get("type"));
        }
    }

    /** The session's origin (a payment request, a page visit) and how the checkout presents it. */
    public record Origin(String kind, SessionOrigin.Presentation presentation) {
    }

    /**
     * Who pays, as the mandate of a {@code first_in_series} session keeps their acceptance: the client address and
     * browser of the request that started the attempt (null where there is none).
     */
    public record Payer(String address, String userAgent) {
        public static final Payer UNKNOWN = new Payer(null, null);
    }

    /** The session of a checkout id, as its page shows it; empty for an unknown id or a charge without a checkout. */
    public Optional<Session> find(String checkoutSessionId) {
        return findSession(checkoutSessionId).map(this::sessionOf);
    }

    /**
     * Starts an attempt with the customer's method: see {@link PaymentAttempts#start}. {@code attemptsSeen}: the
     * attempts the customer's form was issued after (one form starts at most one attempt), or null.
     */
    public Attempt start(String paymentSessionId, PaymentMethodInput method, Integer attemptsSeen, Payer payer) {
        return attemptOf(attempts.start(paymentSessionId, method, attemptsSeen, payer));
    }

    /** Asks the processor about the latest attempt when it waits for the customer, and records what it answers. */
    public Optional<Attempt> refresh(String paymentSessionId) {
        PaymentSession session = sessions.findById(paymentSessionId, false).orElseThrow();
        moves.latest(session).ifPresent(attempts::refresh);
        return moves.latest(session).map(CheckoutSessions::attemptOf);
    }

    /** The customer gives up: the session ends {@code cancelled} unless an attempt is in flight. */
    public void cancel(String paymentSessionId) {
        tx.executeWithoutResult(s -> {
            PaymentSession session = sessions.findById(paymentSessionId, true).orElseThrow();
            sessionService.cancel(Caller.system(session.merchantId(), session.mode()), session);
        });
    }

    /**
     * The customer's answer on the sandbox's 3-D Secure or bank page (test mode), for the latest attempt waiting on
     * that page; false when none is waiting there (nothing is decided).
     */
    public boolean decideOnSandboxPage(String paymentSessionId, SandboxProcessor.Decision decision) {
        PaymentSession session = sessions.findById(paymentSessionId, false).orElseThrow();
        var waiting = moves.latest(session).flatMap(Payment::awaitingCustomer);
        if (session.mode() != Mode.TEST || waiting.isEmpty() || waiting.get().action().equals("app_approval")) {
            return false;
        }
        processors.sandbox().decide(waiting.get().processorKey(), decision);
        return true;
    }

    private Optional<PaymentSession> findSession(String checkoutSessionId) {
        return sessions.findByCheckout(checkoutSessionId, false).filter(s -> !s.nextInSeries());
    }

    private Session sessionOf(PaymentSession s) {
        var options = s.options();
        var checkoutOptions = options.checkoutOptions();
        String merchantName = merchants.byId(s.merchantId()).map(Merchants.Merchant::name).orElse(null);
        Map<PaymentMethodType, String> phones = new java.util.EnumMap<>(PaymentMethodType.class);
        for (PaymentMethodType type : List.of(PaymentMethodType.CAPITEC_PAY, PaymentMethodType.MOBILE_MONEY)) {
            Optional.ofNullable(options.prefilledPhone(type)).ifPresent(phone -> phones.put(type, phone));
        }
        Origin origin = moves.presentOrigin(s).map(p -> new Origin(s.origin().kind(), p)).orElse(null);
        return new Session(s.id(), s.checkoutSessionId(), s.mode(), merchantName, s.amount(), s.currency(),
                s.country(), options.visibleMethods().stream().flatMap(m -> PaymentMethodType.fromWire(m).stream())
                .toList(), PaymentMethodType.fromWire(checkoutOptions.selectedPaymentMethod()).orElse(null),
                checkoutOptions.presentationMode(), !Boolean.FALSE.equals(checkoutOptions.displayPayButton()),
                options.merchantSelection(), s.returnUrl(), phones, Status.valueOf(s.status().name()),
                "reserved".equals(s.paymentOutcome()), s.attempts(), PaymentSession.MAX_ATTEMPTS,
                s.waitingForMerchant(), s.expiresAt(), moves.latest(s).map(CheckoutSessions::attemptOf)
                .orElse(null), origin, seriesTerms(s, merchantName));
    }

    /** What a {@code first_in_series} session's customer agrees to by paying, in plain words; null for others. */
    private String seriesTerms(PaymentSession s, String merchantName) {
        return s.firstInSeries() ? terms.inWords(s.options().series(),
                merchantName == null ? "the merchant" : merchantName, s.currency()) : null;
    }

    private static Attempt attemptOf(Payment p) {
        var waiting = p.awaitingCustomer();
        return new Attempt(p.id(), p.status(), waiting.map(PaymentOperation::action).orElse(null),
                waiting.map(PaymentOperation::redirectUrl).orElse(null), p.lastPaymentError(),
                p.paymentMethodDetails());
    }
}
