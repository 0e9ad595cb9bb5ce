package io.tender.checkout;

import io.tender.api.Rejected;
import io.tender.api.Rejections;
import io.tender.auth.Mode;
import io.tender.payment.CheckoutSessions;
import io.tender.payment.CheckoutSessions.Session;
import io.tender.payment.PaymentError;
import io.tender.payment.PaymentMethodType;
import io.tender.payment.PaymentStatus;
import io.tender.processor.PaymentMethodInput;
import io.tender.processor.sandbox.SandboxProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The hosted checkout's application service (decisions §6), with a session's unguessable {@code ckt_} id and no
 * API key, on payments' {@link CheckoutSessions}. For the pages: {@link #load} answers the {@link CheckoutPage} to render, {@link #pay} starts an attempt from
 * the posted {@link PaymentForm} (or answers its field errors), {@link #decide}, {@link #returned} and
 * {@link #cancel} answer the page after the customer's action; a refusal there changes nothing and the page shows
 * the session as it now is. For the JSON API and tests, {@code payBy…}, {@link #attempt} and {@link #decideSandbox}
 * answer the {@link Attempt} and throw each refusal as a {@link CheckoutRejection} worded by {@link CheckoutProblems}
 * (400 with the field, 404 for an unknown checkout, 409 when the session takes no attempt). Card numbers and security
 * codes go from here straight to the processor: they are never stored, logged, evented or answered.
 */
@Service
public class Checkout {

    private static final Logger log = LoggerFactory.getLogger(Checkout.class);
    private static final Pattern CHECKOUT_ID = Pattern.compile("^ckt_[a-f0-9]{32}$");

    /**
     * The latest attempt: its payment's status ({@code pending}, {@code succeeded}, {@code failed}, {@code expired});
     * {@code action} while the customer has to act ({@code three_d_secure}, {@code bank_login}, {@code app_approval}),
     * with the processor's {@code redirectUrl} (null for the sandbox's own pages and for apps).
     */
    public record Attempt(String paymentId, String status, String method, String action, String redirectUrl,
                          PaymentError error, Map<String, Object> paymentMethodDetails) {
    }

    /**
     * Who is paying, as the mandate of a {@code first_in_series} session keeps their acceptance: the client address
     * and browser of the request that started the attempt (null where an in-process caller has none).
     */
    public record Client(String address, String userAgent) {
        public static final Client UNKNOWN = new Client(null, null);

        public Client {
            address = address == null ? null : address.substring(0, Math.min(address.length(), 64));
            userAgent = userAgent == null ? null : userAgent.substring(0, Math.min(userAgent.length(), 500));
        }
    }

    private final CheckoutSessions sessions;
    private final Rejections rejections;

    Checkout(CheckoutSessions sessions, Rejections rejections) {
        this.sessions = sessions;
        this.rejections = rejections;
    }

    // ---- the pages ------------------------------------------------------------------------------------------

    /**
     * The page for a checkout id; empty for anything else (the page answers 404). An attempt no page of ours finishes
     * (an app approval, an answer still unclear) is asked after at the processor first.
     */
    public Optional<CheckoutPage> load(String checkoutSessionId) {
        Optional<Session> session = find(checkoutSessionId);
        if (session.isEmpty()) {
            return Optional.empty();
        }
        if (session.get().status() == CheckoutSessions.Status.ACTIVE
                && Optional.ofNullable(session.get().latest()).filter(Checkout::waitsElsewhere).isPresent()) {
            String id = session.get().id();
            refused(() -> sessions.refresh(id));
            session = find(checkoutSessionId);
        }
        return session.map(Checkout::pageOf);
    }

    /**
     * The customer's payment form, posted for {@code method} from the page as it was after {@code attemptsSeen}
     * attempts: its field errors in the customer's words (nothing is sent), or none once an attempt was started or
     * refused (a second post of one form starts nothing: the count is checked under the session's lock).
     */
    public Map<String, String> pay(String checkoutSessionId, PaymentMethodType method, PaymentForm form,
                                   int attemptsSeen, Client client) {
        Session session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
        return switch (form.check(method, YearMonth.now(ZoneOffset.UTC), session.country())) {
            case PaymentForm.Checked.Invalid invalid -> invalid.errors();
            case PaymentForm.Checked.Valid valid -> {
                refused(() -> start(checkoutSessionId, method, valid.input(), attemptsSeen, client));
                yield Map.of();
            }
        };
    }

    /** The customer's answer on the sandbox's 3-D Secure or bank page; the page after it. */
    public CheckoutPage decide(String checkoutSessionId, SandboxProcessor.Decision decision) {
        refused(() -> decideSandbox(checkoutSessionId, decision));
        return reload(checkoutSessionId);
    }

    /**
     * The customer is back from the processor's 3-D Secure or bank page (live mode): the processor is asked how the
     * attempt ended through the status query (the authorization is never sent again); the page after it.
     */
    public CheckoutPage returned(String checkoutSessionId) {
        refused(() -> attempt(checkoutSessionId));
        return reload(checkoutSessionId);
    }

    /** The customer gives up: the session ends {@code cancelled} unless an attempt is in flight; the page after it. */
    public CheckoutPage cancel(String checkoutSessionId) {
        refused(() -> {
            sessions.cancel(find(checkoutSessionId).orElseThrow(Checkout::notFound).id());
            return null;
        });
        return reload(checkoutSessionId);
    }

    // ---- the JSON API ---------------------------------------------------------------------------------------

    /** Pays by card, with {@link PaymentForm}'s card rules checked before anything is sent. */
    public Attempt payByCard(String checkoutSessionId, String cardNumber, int expMonth, int expYear, String securityCode) {
        return payByCard(checkoutSessionId, cardNumber, expMonth, expYear, securityCode, Client.UNKNOWN);
    }

    /** {@link #payByCard(String, String, int, int, String)} for a {@code client} whose acceptance is recorded. */
    public Attempt payByCard(String checkoutSessionId, String cardNumber, int expMonth, int expYear, String securityCode,
                             Client client) {
        return answered(() -> {
            String number = cardNumber == null ? "" : cardNumber.replaceAll("[ -]", "");
            Map<String, String> errors = PaymentForm.cardErrors(number, expMonth, expYear, securityCode,
                    YearMonth.now(ZoneOffset.UTC), false);
            if (!errors.isEmpty()) {
                throw new CheckoutRejection.CardDetailsInvalid(errors.containsKey(PaymentForm.CARD_NUMBER),
                        errors.containsKey(PaymentForm.EXPIRY_DATE), errors.containsKey(PaymentForm.SECURITY_CODE))
                        .thrown();
            }
            int year = expYear < 100 ? 2000 + expYear : expYear;
            return start(checkoutSessionId, PaymentMethodType.CARD,
                    new PaymentMethodInput.Card(number, expMonth, year, securityCode), null, client);
        });
    }

    public Attempt payByBank(String checkoutSessionId, String bank) {
        return answered(() -> {
            if (bank == null || bank.isBlank() || bank.length() > 60) {
                throw new CheckoutRejection.BankNotChosen().thrown();
            }
            return start(checkoutSessionId, PaymentMethodType.PAY_BY_BANK, new PaymentMethodInput.Bank(bank.trim()),
                    null, Client.UNKNOWN);
        });
    }

    /** A bank app ({@code capitec_pay}) or mobile money: the customer approves on their phone. */
    public Attempt payByPhone(String checkoutSessionId, PaymentMethodType type, String phoneNumber) {
        return answered(() -> {
            if (!type.usesPhone()) {
                throw new CheckoutRejection.NotPhoneMethod().thrown();
            }
            Session session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
            String phone = PaymentForm.phone(phoneNumber, session.country())
                    .orElseThrow(() -> new CheckoutRejection.PhoneNotOfCountry(session.country()).thrown());
            return start(checkoutSessionId, type, new PaymentMethodInput.Phone(type.wire(), phone), null,
                    Client.UNKNOWN);
        });
    }

    /** The latest attempt now, after asking the processor about one waiting for the customer. */
    public Optional<Attempt> attempt(String checkoutSessionId) {
        return answered(() -> {
            Session session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
            return sessions.refresh(session.id()).map(Checkout::attemptOf);
        });
    }

    /** The customer's answer on the sandbox's 3-D Secure or bank page (test mode only). */
    public Optional<Attempt> decideSandbox(String checkoutSessionId, SandboxProcessor.Decision decision) {
        return answered(() -> {
            Session session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
            if (session.mode() != Mode.TEST || session.latest() == null) {
                throw notFound();
            }
            if (!sessions.decideOnSandboxPage(session.id(), decision)) {
                throw new CheckoutRejection.NotWaitingForPage().thrown();
            }
            return attempt(checkoutSessionId);
        });
    }

    // ---- shared ---------------------------------------------------------------------------------------------

    /** {@code work}, with its rejection answered as its problem ({@link CheckoutProblems}, or its module's). */
    private <T> T answered(Supplier<T> work) {
        return rejections.answering(work).get();
    }

    /** Runs a customer's action from a page; a refusal leaves the session as it was (the page shows it again). */
    private void refused(Supplier<?> action) {
        try {
            answered(action);
        } catch (io.tender.api.ApiException e) {
            log.info("Checkout action refused: {} ({})", e.code(), e.status());
        }
    }

    private Attempt start(String checkoutSessionId, PaymentMethodType type, PaymentMethodInput method,
                          Integer attemptsSeen, Client client) {
        Session session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
        if (!session.offers(type)) {
            throw new CheckoutRejection.MethodNotOffered().thrown();
        }
        // The obligation may refuse the amount now: billing's rejection passes like payments'.
        return attemptOf(sessions.start(session.id(), method, attemptsSeen,
                new CheckoutSessions.Payer(client.address(), client.userAgent())));
    }

    private Optional<Session> find(String checkoutSessionId) {
        if (checkoutSessionId == null || !CHECKOUT_ID.matcher(checkoutSessionId).matches()) {
            return Optional.empty();
        }
        return sessions.find(checkoutSessionId);
    }

    private CheckoutPage reload(String checkoutSessionId) {
        return find(checkoutSessionId).map(Checkout::pageOf)
                .orElseThrow(() -> new IllegalStateException("The checkout session is gone"));
    }

    private static Rejected notFound() {
        return new CheckoutRejection.CheckoutNotFound().thrown();
    }

    private static Attempt attemptOf(CheckoutSessions.Attempt p) {
        return new Attempt(p.paymentId(), p.status().wire(), p.method(), p.action(), p.redirectUrl(), p.error(),
                p.paymentMethodDetails());
    }

    /** A pending attempt that no page of ours finishes: an app approval, or the processor's answer still unclear. */
    private static boolean waitsElsewhere(CheckoutSessions.Attempt latest) {
        return latest.status() == PaymentStatus.PENDING && customerPage(latest).isEmpty();
    }

    // ---- the page's view of a session -----------------------------------------------------------------------

    private static CheckoutPage pageOf(Session s) {
        Optional<CheckoutSessions.Attempt> latest = Optional.ofNullable(s.latest());
        CheckoutPage.State state = state(s, latest);
        CheckoutPage.PendingAction action = state == CheckoutPage.State.ACTION_REQUIRED
                ? latest.flatMap(p -> customerPage(p).map(kind -> new CheckoutPage.PendingAction(kind,
                detail(p, "bank"), p.redirectUrl()))).orElseThrow() : null;
        CheckoutPage.AttemptError error = latest.filter(p -> p.status() == PaymentStatus.FAILED
                || p.status() == PaymentStatus.EXPIRED).map(Checkout::errorOf).orElse(null);
        String paidWith = state == CheckoutPage.State.SUCCEEDED ? latest.map(Checkout::paidWith).orElse(null) : null;
        var origin = Optional.ofNullable(s.origin()).map(o -> new CheckoutPage.Origin(o.kind(),
                o.presentation().title(), o.presentation().description(), o.presentation().backUrl(),
                o.presentation().cancellable(), o.presentation().status())).orElse(null);
        return new CheckoutPage(s.checkoutSessionId(), s.id(), s.merchantName() == null ? "" : s.merchantName(),
                s.mode() == Mode.TEST, s.amount(), s.currency(), s.country(), s.visibleMethods(), s.selectedMethod(),
                CheckoutPage.PresentationMode.valueOf(s.presentationMode().toUpperCase(Locale.ROOT)),
                s.displayPayButton(), s.merchantSelection(), s.returnUrl(), prefilledPhone(s), state, action, error,
                s.attempts(), s.maxAttempts(), paidWith, s.reserved(), s.expiresAt(), origin, s.seriesTerms());
    }

    private static CheckoutPage.State state(Session session, Optional<CheckoutSessions.Attempt> latest) {
        switch (session.status()) {
            case COMPLETED:
                return CheckoutPage.State.SUCCEEDED;
            case CANCELLED:
                return CheckoutPage.State.CANCELLED;
            case EXPIRED:
                return CheckoutPage.State.EXPIRED;
            default:
                break;
        }
        if (latest.isEmpty()) {
            return CheckoutPage.State.OPEN;
        }
        return switch (latest.get().status()) {
            case PENDING -> customerPage(latest.get()).isPresent() ? CheckoutPage.State.ACTION_REQUIRED
                    : CheckoutPage.State.WAITING;
            case SUCCEEDED -> CheckoutPage.State.SUCCEEDED;
            default -> session.waitingForMerchant() ? CheckoutPage.State.RETURNED_TO_MERCHANT
                    : session.attempts() >= session.maxAttempts() ? CheckoutPage.State.FAILED
                    : CheckoutPage.State.OPEN;
        };
    }

    /** The page an attempt waits on (ours in test mode, the processor's in live); an app approval has none. */
    private static Optional<CheckoutPage.PendingAction.Kind> customerPage(CheckoutSessions.Attempt payment) {
        return switch (payment.action() == null ? "" : payment.action()) {
            case "three_d_secure" -> Optional.of(CheckoutPage.PendingAction.Kind.THREE_D_SECURE);
            case "bank_login" -> Optional.of(CheckoutPage.PendingAction.Kind.BANK);
            default -> Optional.empty();
        };
    }

    /**
     * The failed attempt in the customer's words. The payment's messages are written for the merchant ("The customer
     * declined..."), so the page says its own, by code and method.
     */
    private static CheckoutPage.AttemptError errorOf(CheckoutSessions.Attempt payment) {
        PaymentError error = payment.error();
        String errorCode = error == null ? null : error.errorCode();
        String declineCode = error == null ? null : error.declineCode();
        String code = declineCode != null ? declineCode : errorCode != null ? errorCode : "payment_failed";
        boolean bank = "pay_by_bank".equals(payment.method());
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
        return new CheckoutPage.AttemptError(code, message);
    }

    /** "VISA •••• 4242", "Pay by bank", "Capitec Pay •••• 4567" for the result page. */
    private static String paidWith(CheckoutSessions.Attempt payment) {
        Optional<PaymentMethodType> type = PaymentMethodType.fromWire(payment.method());
        if (type.isEmpty()) {
            return null;
        }
        return switch (type.get()) {
            case CARD -> {
                String scheme = detail(payment, "scheme");
                String last4 = detail(payment, "last4");
                yield scheme == null || last4 == null ? "Card" : scheme + " •••• " + last4;
            }
            case PAY_BY_BANK -> "Pay by bank";
            case CAPITEC_PAY, MOBILE_MONEY -> {
                String phone = detail(payment, "phone_number");
                yield phone == null || phone.length() < 4 ? type.get().label()
                        : type.get().label() + " •••• " + phone.substring(phone.length() - 4);
            }
        };
    }

    /** A field of the payment's {@code payment_method_details} under its type ({@code card.last4}, {@code pay_by_bank.bank}). */
    private static String detail(CheckoutSessions.Attempt payment, String field) {
        Map<String, Object> details = payment.paymentMethodDetails();
        String method = payment.method();
        if (details == null || method == null || !(details.get(method) instanceof Map<?, ?> inner)) {
            return null;
        }
        Object value = inner.get(field);
        return value == null ? null : value.toString();
    }

    /** The phone number the merchant gave for the method shown first (the selected one, else either app method). */
    private static String prefilledPhone(Session session) {
        PaymentMethodType selected = session.selectedMethod();
        if (selected != null && selected.usesPhone() && session.prefilledPhones().containsKey(selected)) {
            return session.prefilledPhones().get(selected);
        }
        return List.of(PaymentMethodType.CAPITEC_PAY, PaymentMethodType.MOBILE_MONEY).stream()
                .map(session.prefilledPhones()::get).filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }
}
