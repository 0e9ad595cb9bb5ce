package io.tender.payment;

import io.tender.api.Rejected;
import io.tender.api.Rejections;
import io.tender.auth.Caller;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import io.tender.processor.PaymentMethodInput;
import io.tender.processor.PaymentProcessors;
import io.tender.processor.sandbox.SandboxProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The hosted checkout's one entry into payments (decisions §6), with a session's unguessable {@code ckt_} id and no
 * API key. For the pages: {@link #load} answers the {@link CheckoutPage} to render, {@link #pay} starts an attempt from
 * the posted {@link PaymentForm} (or answers its field errors), {@link #decide}, {@link #returned} and
 * {@link #cancel} answer the page after the customer's action; a refusal there changes nothing and the page shows
 * the session as it now is. For the JSON API and tests, {@code payBy…}, {@link #attempt} and {@link #decideSandbox}
 * answer the {@link Attempt} and throw each refusal as a {@link PaymentRejection} worded by {@link PaymentProblems}
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

    private final PaymentSessions sessions;
    private final PaymentAttempts attempts;
    private final PaymentSessionService sessionService;
    private final PaymentSettlement settlement;
    private final PaymentProcessors processors;
    private final Merchants merchants;
    private final TransactionTemplate tx;
    private final Rejections rejections;
    private final java.time.Clock clock;

    Checkout(PaymentSessions sessions, PaymentAttempts attempts, PaymentSessionService sessionService,
             PaymentSettlement settlement, PaymentProcessors processors, Merchants merchants, TransactionTemplate tx,
             Rejections rejections, java.time.Clock clock) {
        this.sessions = sessions;
        this.attempts = attempts;
        this.sessionService = sessionService;
        this.settlement = settlement;
        this.processors = processors;
        this.merchants = merchants;
        this.tx = tx;
        this.rejections = rejections;
        this.clock = clock;
    }

    // ---- the pages ------------------------------------------------------------------------------------------

    /**
     * The page for a checkout id; empty for anything else (the page answers 404). An attempt no page of ours finishes
     * (an app approval, an answer still unclear) is asked after at the processor first.
     */
    public Optional<CheckoutPage> load(String checkoutSessionId) {
        Optional<PaymentSession> session = find(checkoutSessionId);
        if (session.isEmpty()) {
            return Optional.empty();
        }
        Optional<Payment> latest = settlement.latest(session.get());
        if (session.get().status() == PaymentSession.Status.ACTIVE && latest.filter(Checkout::waitsElsewhere).isPresent()) {
            refused(() -> {
                attempts.refresh(latest.get());
                return null;
            });
            session = find(checkoutSessionId);
        }
        return session.map(this::pageOf);
    }

    /**
     * The customer's payment form, posted for {@code method} from the page as it was after {@code attemptsSeen}
     * attempts: its field errors in the customer's words (nothing is sent), or none once an attempt was started or
     * refused (a second post of one form starts nothing: the count is checked under the session's lock).
     */
    public Map<String, String> pay(String checkoutSessionId, PaymentMethodType method, PaymentForm form,
                                   int attemptsSeen, Client client) {
        PaymentSession session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
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
            PaymentSession session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
            tx.executeWithoutResult(s -> sessionService.cancel(Caller.system(session.merchantId(), session.mode()),
                    sessions.findById(session.id(), true).orElseThrow()));
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
                throw new PaymentRejection.CardDetailsInvalid(errors.containsKey(PaymentForm.CARD_NUMBER),
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
                throw new PaymentRejection.BankNotChosen().thrown();
            }
            return start(checkoutSessionId, PaymentMethodType.PAY_BY_BANK, new PaymentMethodInput.Bank(bank.trim()),
                    null, Client.UNKNOWN);
        });
    }

    /** A bank app ({@code capitec_pay}) or mobile money: the customer approves on their phone. */
    public Attempt payByPhone(String checkoutSessionId, PaymentMethodType type, String phoneNumber) {
        return answered(() -> {
            if (!type.usesPhone()) {
                throw new PaymentRejection.NotPhoneMethod().thrown();
            }
            PaymentSession session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
            String phone = PaymentForm.phone(phoneNumber, session.country())
                    .orElseThrow(() -> new PaymentRejection.PhoneNotOfCountry(session.country()).thrown());
            return start(checkoutSessionId, type, new PaymentMethodInput.Phone(type.wire(), phone), null,
                    Client.UNKNOWN);
        });
    }

    /** The latest attempt now, after asking the processor about one waiting for the customer. */
    public Optional<Attempt> attempt(String checkoutSessionId) {
        return answered(() -> {
            PaymentSession session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
            settlement.latest(session).ifPresent(attempts::refresh);
            return settlement.latest(session).map(Checkout::attemptOf);
        });
    }

    /** The customer's answer on the sandbox's 3-D Secure or bank page (test mode only). */
    public Optional<Attempt> decideSandbox(String checkoutSessionId, SandboxProcessor.Decision decision) {
        return answered(() -> {
            PaymentSession session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
            if (session.mode() != Mode.TEST) {
                throw notFound();
            }
            Payment payment = settlement.latest(session).orElseThrow(Checkout::notFound);
            var waiting = payment.awaitingCustomer();
            if (waiting.isEmpty() || waiting.get().action().equals("app_approval")) {
                throw new PaymentRejection.NotWaitingForPage().thrown();
            }
            processors.sandbox().decide(waiting.get().processorKey(), decision);
            return attempt(checkoutSessionId);
        });
    }

    // ---- shared ---------------------------------------------------------------------------------------------

    /** {@code work}, with its rejection answered as its problem ({@link PaymentProblems}). */
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
        PaymentSession session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
        if (!session.options().visibleMethods().contains(type.wire())
                || (session.options().checkoutOptions().selectedPaymentMethod() != null
                && session.options().merchantSelection()
                && !session.options().checkoutOptions().selectedPaymentMethod().equals(type.wire()))) {
            throw new PaymentRejection.MethodNotOffered().thrown();
        }
        // The obligation may refuse the amount now: billing's rejection passes like ours.
        return attemptOf(attempts.start(session.id(), method, attemptsSeen, client));
    }

    private Optional<PaymentSession> find(String checkoutSessionId) {
        if (checkoutSessionId == null || !CHECKOUT_ID.matcher(checkoutSessionId).matches()) {
            return Optional.empty();
        }
        // A charge without the customer (next_in_series) has no checkout.
        return sessions.findByCheckout(checkoutSessionId, false).filter(s -> !s.nextInSeries());
    }

    private CheckoutPage reload(String checkoutSessionId) {
        return find(checkoutSessionId).map(this::pageOf)
                .orElseThrow(() -> new IllegalStateException("The checkout session is gone"));
    }

    private static Rejected notFound() {
        return new PaymentRejection.CheckoutNotFound().thrown();
    }

    private static Attempt attemptOf(Payment p) {
        var waiting = p.awaitingCustomer();
        return new Attempt(p.id(), p.status().wire(), methodOf(p), waiting.map(PaymentOperation::action).orElse(null),
                waiting.map(PaymentOperation::redirectUrl).orElse(null), p.lastPaymentError(), p.paymentMethodDetails());
    }

    private static String methodOf(Payment p) {
        return p.paymentMethodDetails() == null ? null : String.valueOf(p.paymentMethodDetails().get("type"));
    }

    /** A pending attempt that no page of ours finishes: an app approval, or the processor's answer still unclear. */
    private static boolean waitsElsewhere(Payment latest) {
        return latest.status() == PaymentStatus.PENDING && customerPage(latest).isEmpty();
    }

    // ---- the page's view of a session -----------------------------------------------------------------------

    private CheckoutPage pageOf(PaymentSession s) {
        var options = s.options();
        var checkoutOptions = options.checkoutOptions();
        List<PaymentMethodType> visible = options.visibleMethods().stream()
                .flatMap(m -> PaymentMethodType.fromWire(m).stream()).toList();
        PaymentMethodType selected = PaymentMethodType.fromWire(checkoutOptions.selectedPaymentMethod()).orElse(null);
        Optional<Payment> latest = settlement.latest(s);
        CheckoutPage.State state = state(s, latest);
        CheckoutPage.PendingAction action = state == CheckoutPage.State.ACTION_REQUIRED
                ? latest.flatMap(p -> customerPage(p).map(kind -> new CheckoutPage.PendingAction(kind,
                detail(p, "bank"), p.awaitingCustomer().map(PaymentOperation::redirectUrl).orElse(null))))
                .orElseThrow() : null;
        CheckoutPage.AttemptError error = latest.filter(p -> p.status() == PaymentStatus.FAILED
                || p.status() == PaymentStatus.EXPIRED).map(Checkout::errorOf).orElse(null);
        String paidWith = state == CheckoutPage.State.SUCCEEDED ? latest.map(Checkout::paidWith).orElse(null) : null;
        var origin = settlement.presentOrigin(s).map(o -> new CheckoutPage.Origin(s.origin().kind(), o.title(),
                o.description(), o.backUrl(), o.cancellable(), o.status())).orElse(null);
        return new CheckoutPage(s.checkoutSessionId(), s.id(),
                merchants.byId(s.merchantId()).map(Merchants.Merchant::name).orElse(""), s.mode() == Mode.TEST,
                s.amount(), s.currency(), s.country(), visible, selected,
                CheckoutPage.PresentationMode.valueOf(checkoutOptions.presentationMode().toUpperCase(Locale.ROOT)),
                !Boolean.FALSE.equals(checkoutOptions.displayPayButton()), options.merchantSelection(), s.returnUrl(),
                prefilledPhone(options, selected), state, action, error, s.attempts(), PaymentSession.MAX_ATTEMPTS,
                paidWith, "reserved".equals(s.paymentOutcome()), s.expiresAt(), origin, seriesTerms(s));
    }

    /**
     * What a {@code first_in_series} session's customer agrees to by paying, in plain words; null for other sessions.
     * A subscription without a start date charges first one interval after today's payment.
     */
    private String seriesTerms(PaymentSession s) {
        if (!s.firstInSeries()) {
            return null;
        }
        String merchant = merchants.byId(s.merchantId()).map(Merchants.Merchant::name).orElse("the merchant");
        MandateTerms mandate = s.options().mandateTerms();
        if (mandate != null) {
            return MandateWords.of(mandate, merchant, s.currency());
        }
        SubscriptionTerms subscription = s.options().subscriptionTerms();
        java.time.LocalDate today = java.time.LocalDate.ofInstant(clock.instant(), subscription.timeZone());
        return MandateWords.of(subscription, MandateSchedule.of(subscription, today, subscription.timeZone())
                .firstOnOrAfter(today).orElse(today), merchant, s.currency());
    }

    private static CheckoutPage.State state(PaymentSession session, Optional<Payment> latest) {
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
                    : session.attempts() >= PaymentSession.MAX_ATTEMPTS ? CheckoutPage.State.FAILED
                    : CheckoutPage.State.OPEN;
        };
    }

    /** The page an attempt waits on (ours in test mode, the processor's in live); an app approval has none. */
    private static Optional<CheckoutPage.PendingAction.Kind> customerPage(Payment payment) {
        return switch (payment.awaitingCustomer().map(PaymentOperation::action).orElse("")) {
            case "three_d_secure" -> Optional.of(CheckoutPage.PendingAction.Kind.THREE_D_SECURE);
            case "bank_login" -> Optional.of(CheckoutPage.PendingAction.Kind.BANK);
            default -> Optional.empty();
        };
    }

    /**
     * The failed attempt in the customer's words. The payment's messages are written for the merchant ("The customer
     * declined..."), so the page says its own, by code and method.
     */
    private static CheckoutPage.AttemptError errorOf(Payment payment) {
        PaymentError error = payment.lastPaymentError();
        String errorCode = error == null ? null : error.errorCode();
        String declineCode = error == null ? null : error.declineCode();
        String code = declineCode != null ? declineCode : errorCode != null ? errorCode : "payment_failed";
        boolean bank = "pay_by_bank".equals(methodOf(payment));
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
    private static String paidWith(Payment payment) {
        Optional<PaymentMethodType> type = PaymentMethodType.fromWire(methodOf(payment));
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
    private static String detail(Payment payment, String field) {
        Map<String, Object> details = payment.paymentMethodDetails();
        String method = methodOf(payment);
        if (details == null || method == null || !(details.get(method) instanceof Map<?, ?> inner)) {
            return null;
        }
        Object value = inner.get(field);
        return value == null ? null : value.toString();
    }

    /** The phone number the merchant gave for the method shown first (the selected one, else either app method). */
    private static String prefilledPhone(SessionOptions options, PaymentMethodType selected) {
        if (selected != null && selected.usesPhone() && options.prefilledPhone(selected) != null) {
            return options.prefilledPhone(selected);
        }
        return List.of(PaymentMethodType.CAPITEC_PAY, PaymentMethodType.MOBILE_MONEY).stream()
                .map(options::prefilledPhone).filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }
}
