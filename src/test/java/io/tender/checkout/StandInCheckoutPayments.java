package io.tender.checkout;

import io.tender.api.Ids;
import io.tender.checkout.CheckoutSession.AttemptError;
import io.tender.checkout.CheckoutSession.PendingAction;
import io.tender.checkout.CheckoutSession.PresentationMode;
import io.tender.checkout.CheckoutSession.State;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test-only stand-in for Collect's checkout application API, in memory, following decisions §6's sandbox table,
 * so that the pages can be built and driven in a browser before the payment backend lands. Component scan finds it
 * on the test classpath only. It records what the processor would receive so that tests can check the card number
 * reached it (and nothing else).
 */
@Component
class StandInCheckoutPayments implements CheckoutPayments {

    static final Duration APPROVAL_DELAY = Duration.ofSeconds(2);

    private final Map<String, Entry> sessions = new ConcurrentHashMap<>();
    final Map<String, MethodInput> lastInputs = new ConcurrentHashMap<>();

    /** What a merchant's session create would say, reduced to what the page uses. */
    record Options(String merchantName, long amount, String currency, List<PaymentMethodType> visibleMethods,
                   PaymentMethodType selectedMethod, PresentationMode presentationMode, boolean displayPayButton,
                   boolean merchantSelection, String returnUrl, String prefilledPhone, boolean manualCapture) {
    }

    private static final class Entry {
        final String ckt = Ids.newId("ckt_");
        final String ps = Ids.newId("ps_");
        final Options options;
        State state = State.OPEN;
        PaymentMethodType selected;
        PendingAction action;
        AttemptError error;
        int attempts;
        String paidWith;
        Instant finishesAt;
        boolean finishApproved;

        Entry(Options options) {
            this.options = options;
            this.selected = options.selectedMethod();
        }
    }

    CheckoutSession create(Options options) {
        Entry entry = new Entry(options);
        sessions.put(entry.ckt, entry);
        return view(entry);
    }

    /** The merchant's {@code complete}: the session is ready for the next attempt with the method it chose. */
    Optional<CheckoutSession> complete(String paymentSessionId, PaymentMethodType method) {
        return sessions.values().stream().filter(e -> e.ps.equals(paymentSessionId)).findFirst().map(e -> {
            synchronized (e) {
                if (e.state == State.RETURNED_TO_MERCHANT) {
                    e.state = State.OPEN;
                    e.selected = method;
                }
                return view(e);
            }
        });
    }

    @Override
    public Optional<CheckoutSession> session(String checkoutSessionId) {
        return Optional.ofNullable(sessions.get(checkoutSessionId)).map(e -> {
            synchronized (e) {
                if (e.state == State.WAITING && Instant.now().isAfter(e.finishesAt)) {
                    if (e.finishApproved) {
                        succeed(e, null);
                    } else {
                        decline(e, "card_declined", "The payment was declined in the app. Try again or use another method.");
                    }
                }
                return view(e);
            }
        });
    }

    @Override
    public CheckoutSession startAttempt(String checkoutSessionId, MethodInput input) {
        Entry e = sessions.get(checkoutSessionId);
        synchronized (e) {
            if (e.state != State.OPEN || e.attempts >= 5) {
                return view(e);
            }
            e.attempts++;
            e.error = null;
            lastInputs.put(e.ps, input);
            switch (input) {
                case MethodInput.Card card -> {
                    String last4 = card.number().substring(card.number().length() - 4);
                    String brand = card.number().startsWith("5") ? "MASTERCARD" : "VISA";
                    switch (card.number()) {
                        case "4000000000000002" -> decline(e, "card_declined", "Your card was declined. Try another card or method.");
                        case "4000000000009995" -> decline(e, "insufficient_funds", "Your card was declined: insufficient funds. Try another card or method.");
                        case "4000000000003220" -> {
                            e.state = State.ACTION_REQUIRED;
                            e.action = new PendingAction(PendingAction.Kind.THREE_D_SECURE, null);
                            e.paidWith = brand + " •••• " + last4;
                        }
                        case "4000000000000119" -> waitFor(e, Duration.ofSeconds(1), true, brand + " •••• " + last4);
                        default -> succeed(e, brand + " •••• " + last4);
                    }
                }
                case MethodInput.PayByBank bank -> {
                    e.state = State.ACTION_REQUIRED;
                    e.action = new PendingAction(PendingAction.Kind.BANK, bank.bank());
                    e.paidWith = "Pay by bank";
                }
                case MethodInput.Phone phone -> waitFor(e, APPROVAL_DELAY, !phone.phoneNumber().endsWith("0002"),
                        phone.type().label() + " •••• " + phone.phoneNumber().substring(phone.phoneNumber().length() - 4));
            }
            return view(e);
        }
    }

    @Override
    public CheckoutSession decide(String checkoutSessionId, ActionDecision decision) {
        Entry e = sessions.get(checkoutSessionId);
        synchronized (e) {
            if (e.state == State.ACTION_REQUIRED) {
                e.action = null;
                switch (decision) {
                    case APPROVE -> succeed(e, e.paidWith);
                    case DECLINE -> decline(e, "authentication_failed", "The payment was not approved. Try again or use another method.");
                    case CANCEL -> decline(e, "payment_cancelled", "You cancelled the payment at your bank. Try again or use another method.");
                }
            }
            return view(e);
        }
    }

    @Override
    public CheckoutSession cancel(String checkoutSessionId) {
        Entry e = sessions.get(checkoutSessionId);
        synchronized (e) {
            if (e.state == State.OPEN) {
                e.state = State.CANCELLED;
            }
            return view(e);
        }
    }

    private static void waitFor(Entry e, Duration delay, boolean approve, String paidWith) {
        e.state = State.WAITING;
        e.finishesAt = Instant.now().plus(delay);
        e.finishApproved = approve;
        e.paidWith = paidWith;
    }

    private static void succeed(Entry e, String paidWith) {
        e.state = State.SUCCEEDED;
        e.paidWith = paidWith;
    }

    private static void decline(Entry e, String code, String message) {
        e.error = new AttemptError(code, message);
        e.paidWith = null;
        e.state = e.options.merchantSelection() ? State.RETURNED_TO_MERCHANT : e.attempts >= 5 ? State.FAILED : State.OPEN;
    }

    private static CheckoutSession view(Entry e) {
        Options o = e.options;
        return new CheckoutSession(e.ckt, e.ps, o.merchantName(), true, o.amount(), o.currency(), "ZA",
                o.visibleMethods(), e.selected, o.presentationMode(), o.displayPayButton(), o.merchantSelection(),
                o.returnUrl(), o.prefilledPhone(), e.state, e.action, e.error, e.attempts, 5, e.paidWith,
                o.manualCapture(), Instant.now().plus(Duration.ofHours(24)));
    }
}
