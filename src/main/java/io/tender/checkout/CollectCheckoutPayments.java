package io.tender.checkout;

import io.tender.api.ApiException;
import io.tender.auth.Mode;
import io.tender.checkout.CheckoutSession.AttemptError;
import io.tender.checkout.CheckoutSession.PendingAction;
import io.tender.checkout.CheckoutSession.PresentationMode;
import io.tender.checkout.CheckoutSession.State;
import io.tender.payment.Checkout;
import io.tender.payment.PaymentError;
import io.tender.processor.sandbox.SandboxProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The checkout pages' {@link CheckoutPayments} on Collect's checkout application API ({@link Checkout}): maps a
 * session and its latest attempt onto where the customer stands, and the customer's actions onto
 * {@code payByCard}, {@code payByBank}, {@code payByPhone}, {@code decideSandbox} and {@code cancel}.
 * <p>
 * A refusal from Collect (the session can take no attempt now, details it refuses, a page that is no longer
 * waiting) changes nothing, so the page is simply shown again for the session as it now is; refusals never carry
 * what the customer typed, and are logged by their code only.
 */
@Component
class CollectCheckoutPayments implements CheckoutPayments {

    private static final Logger log = LoggerFactory.getLogger(CollectCheckoutPayments.class);

    /** Collect's rule (decisions §6): at most 5 attempts per session. */
    private static final int MAX_ATTEMPTS = 5;

    private final Checkout checkout;

    CollectCheckoutPayments(Checkout checkout) {
        this.checkout = checkout;
    }

    @Override
    public Optional<CheckoutSession> session(String checkoutSessionId) {
        Optional<Checkout.Page> page = checkout.load(checkoutSessionId);
        if (page.filter(CollectCheckoutPayments::waitsElsewhere).isPresent()) {
            // An app approval (or an unclear answer) finishes at the processor: ask it, then read the session again.
            refused(() -> checkout.attempt(checkoutSessionId));
            page = checkout.load(checkoutSessionId);
        }
        return page.map(CollectCheckoutPayments::sessionOf);
    }

    @Override
    public CheckoutSession startAttempt(String checkoutSessionId, MethodInput input) {
        refused(() -> switch (input) {
            case MethodInput.Card card -> checkout.payByCard(checkoutSessionId, card.number(), card.expMonth(),
                    card.expYear(), card.securityCode());
            case MethodInput.PayByBank bank -> checkout.payByBank(checkoutSessionId, bank.bank());
            case MethodInput.Phone phone -> checkout.payByPhone(checkoutSessionId,
                    io.tender.payment.PaymentMethodType.fromWire(phone.type().wire()).orElseThrow(),
                    phone.phoneNumber());
        });
        return reload(checkoutSessionId);
    }

    @Override
    public CheckoutSession decide(String checkoutSessionId, ActionDecision decision) {
        refused(() -> checkout.decideSandbox(checkoutSessionId, switch (decision) {
            case APPROVE -> SandboxProcessor.Decision.APPROVE;
            case DECLINE -> SandboxProcessor.Decision.DECLINE;
            case CANCEL -> SandboxProcessor.Decision.CANCEL;
        }));
        return reload(checkoutSessionId);
    }

    @Override
    public CheckoutSession returned(String checkoutSessionId) {
        refused(() -> checkout.attempt(checkoutSessionId));
        return reload(checkoutSessionId);
    }

    @Override
    public CheckoutSession cancel(String checkoutSessionId) {
        refused(() -> checkout.cancel(checkoutSessionId));
        return reload(checkoutSessionId);
    }

    /** Runs a customer's action; Collect's refusal leaves the session as it was (the page shows it again). */
    private static void refused(Supplier<?> action) {
        try {
            action.get();
        } catch (ApiException e) {
            log.info("Checkout action refused: {} ({})", e.code(), e.status());
        }
    }

    private CheckoutSession reload(String checkoutSessionId) {
        return checkout.load(checkoutSessionId).map(CollectCheckoutPayments::sessionOf)
                .orElseThrow(() -> new IllegalStateException("The checkout session is gone"));
    }

    /** A pending attempt that no page of ours finishes: an app approval, or the processor's answer still unclear. */
    private static boolean waitsElsewhere(Checkout.Page page) {
        return page.status().equals("active") && page.latest()
                .filter(a -> a.status().equals("pending") && customerPage(a.action()).isEmpty()).isPresent();
    }

    static CheckoutSession sessionOf(Checkout.Page page) {
        List<PaymentMethodType> visible = page.visiblePaymentMethods().stream()
                .flatMap(m -> PaymentMethodType.fromWire(m).stream()).toList();
        PaymentMethodType selected = PaymentMethodType.fromWire(page.selectedPaymentMethod()).orElse(null);
        Optional<Checkout.Attempt> latest = page.latest();
        int attempts = MAX_ATTEMPTS - page.attemptsLeft();
        State state = state(page);
        PendingAction action = state == State.ACTION_REQUIRED ? latest.flatMap(a -> customerPage(a.action())
                .map(kind -> new PendingAction(kind, detail(a, "bank"), a.redirectUrl()))).orElseThrow() : null;
        AttemptError error = latest.filter(a -> a.status().equals("failed") || a.status().equals("expired"))
                .map(CollectCheckoutPayments::errorOf).orElse(null);
        String paidWith = state == State.SUCCEEDED ? latest.map(CollectCheckoutPayments::paidWith).orElse(null) : null;
        return new CheckoutSession(page.checkoutSessionId(), page.paymentSessionId(), page.merchantName(),
                page.mode() == Mode.TEST, page.amount(), page.currency(), page.country(), visible, selected,
                PresentationMode.valueOf(page.presentationMode().toUpperCase(Locale.ROOT)), page.displayPayButton(),
                page.merchantSelection(), page.returnUrl(), prefilledPhone(page, selected), state, action, error,
                attempts, MAX_ATTEMPTS, paidWith, "reserved".equals(page.paymentOutcome()),
                page.expiresAt(), page.origin().map(o -> new CheckoutSession.Origin(o.kind(), o.title(),
                        o.description(), o.backUrl(), o.cancellable(), o.status())).orElse(null));
    }

    private static State state(Checkout.Page page) {
        switch (page.status()) {
            case "completed":
                return State.SUCCEEDED;
            case "cancelled":
                return State.CANCELLED;
            case "expired":
                return State.EXPIRED;
            default:
                break;
        }
        Optional<Checkout.Attempt> latest = page.latest();
        if (latest.isEmpty()) {
            return State.OPEN;
        }
        Checkout.Attempt attempt = latest.get();
        return switch (attempt.status()) {
            case "pending" -> customerPage(attempt.action()).isPresent() ? State.ACTION_REQUIRED : State.WAITING;
            case "succeeded" -> State.SUCCEEDED;
            default -> page.waitingForMerchant() ? State.RETURNED_TO_MERCHANT
                    : page.attemptsLeft() == 0 ? State.FAILED : State.OPEN;
        };
    }

    /** The sandbox page an attempt waits on; an app approval has none (the waiting page). */
    private static Optional<PendingAction.Kind> customerPage(String action) {
        return switch (action == null ? "" : action) {
            case "three_d_secure" -> Optional.of(PendingAction.Kind.THREE_D_SECURE);
            case "bank_login" -> Optional.of(PendingAction.Kind.BANK);
            default -> Optional.empty();
        };
    }

    /**
     * The failed attempt in the customer's words. Collect's messages are written for the merchant ("The customer
     * declined..."), so the page says its own, by code and method.
     */
    private static AttemptError errorOf(Checkout.Attempt attempt) {
        PaymentError error = attempt.error();
        String errorCode = error == null ? null : error.errorCode();
        String declineCode = error == null ? null : error.declineCode();
        String code = declineCode != null ? declineCode : errorCode != null ? errorCode : "payment_failed";
        boolean bank = "pay_by_bank".equals(attempt.method());
        String message = switch (code) {
            case "insufficient_funds" -> "Your card was declined: insufficient funds. Try another card or method.";
            case "generic_decline", "card_declined" -> "Your card was declined. Try another card or method.";
            case "authentication_failed" -> "The payment was not approved. Try again or use another method.";
            case "declined_by_customer" -> bank
                    ? "The payment was declined at your bank. Try again or use another method."
                    : "The payment was declined in the app. Try again or use another method.";
            case "cancelled" -> bank
                    ? "You cancelled the payment at your bank. Try again or use another method."
                    : "The payment was cancelled. Try again or use another method.";
            default -> "The payment did not go through. Try again or use another method.";
        };
        return new AttemptError(code, message);
    }

    /** "VISA •••• 4242", "Pay by bank", "Capitec Pay •••• 4567" for the result page. */
    private static String paidWith(Checkout.Attempt attempt) {
        Optional<PaymentMethodType> type = PaymentMethodType.fromWire(attempt.method());
        if (type.isEmpty()) {
            return null;
        }
        return switch (type.get()) {
            case CARD -> {
                String scheme = detail(attempt, "scheme");
                String last4 = detail(attempt, "last4");
                yield scheme == null || last4 == null ? "Card" : scheme + " •••• " + last4;
            }
            case PAY_BY_BANK -> "Pay by bank";
            case CAPITEC_PAY, MOBILE_MONEY -> {
                String phone = detail(attempt, "phone_number");
                yield phone == null || phone.length() < 4 ? type.get().label()
                        : type.get().label() + " •••• " + phone.substring(phone.length() - 4);
            }
        };
    }

    /** A field of the attempt's {@code payment_method_details} under its type ({@code card.last4}, {@code pay_by_bank.bank}). */
    private static String detail(Checkout.Attempt attempt, String field) {
        Map<String, Object> details = attempt.paymentMethodDetails();
        if (details == null || attempt.method() == null || !(details.get(attempt.method()) instanceof Map<?, ?> inner)) {
            return null;
        }
        Object value = inner.get(field);
        return value == null ? null : value.toString();
    }

    /** The phone number the merchant gave for the method shown first (the selected one, else either app method). */
    private static String prefilledPhone(Checkout.Page page, PaymentMethodType selected) {
        Map<String, String> phones = page.prefilledPhones();
        if (selected != null && phones.containsKey(selected.wire())) {
            return phones.get(selected.wire());
        }
        return phones.values().stream().findFirst().orElse(null);
    }
}
