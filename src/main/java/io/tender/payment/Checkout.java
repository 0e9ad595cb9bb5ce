package io.tender.payment;

import io.tender.api.Rejected;
import io.tender.api.Rejections;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import io.tender.processor.PaymentMethodInput;
import io.tender.processor.PaymentProcessors;
import io.tender.processor.sandbox.SandboxProcessor;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The hosted checkout's application API (decisions §6): what the checkout pages call, with a session's unguessable
 * {@code ckt_} id and no API key. It loads a session, starts an attempt with the customer's method, reports the
 * attempt's state, plays the customer on the sandbox's 3-D Secure and bank pages, and cancels. Card numbers and
 * security codes go from here straight to the processor: they are never stored, logged, evented or answered.
 * Every refusal is a {@link PaymentRejection} value (billing's for an obligation's amount); this facade, the edge
 * the pages and {@code CheckoutJsonController} call, answers it as the problem {@link io.tender.api.Rejections} words
 * (400 with the field, 404 for an unknown checkout, 409 when the session cannot take an attempt).
 */
@Service
public class Checkout {

    private static final Pattern DIGITS = Pattern.compile("^[0-9]{12,19}$");
    private static final Pattern CVC = Pattern.compile("^[0-9]{3,4}$");
    private static final Pattern CHECKOUT_ID = Pattern.compile("^ckt_[a-f0-9]{32}$");

    /**
     * What the checkout page shows. {@code displayAmount} as the live product shows it: {@code ZAR 150.00}.
     * {@code country} is the session's (phone numbers are of it); {@code waitingForMerchant} is true after a failed
     * attempt under {@code payment_method_selection: merchant} until the merchant calls {@code complete}.
     */
    public record Page(String checkoutSessionId, String paymentSessionId, String merchantName, Mode mode, long amount,
                       String currency, String displayAmount, String status, String paymentOutcome,
                       List<String> visiblePaymentMethods, String selectedPaymentMethod, String presentationMode,
                       boolean displayPayButton, boolean merchantSelection, String returnUrl,
                       Map<String, String> prefilledPhones, String prefillMode, int attemptsLeft, Instant expiresAt,
                       Optional<Attempt> latest, String country, boolean waitingForMerchant, Optional<Origin> origin) {
    }

    /**
     * The payment request or page visit the session was opened for (decisions §7), as the page shows it.
     * {@code kind}: {@code payment_request} or {@code payment_page}; {@code status}: the origin's own, where the
     * result page words it (see {@link SessionOrigin.Presentation}), or null.
     */
    public record Origin(String kind, String title, String description, String backUrl, boolean cancellable,
                         String status) {
    }

    /**
     * The latest attempt: its payment's status ({@code pending}, {@code succeeded}, {@code failed}, {@code expired});
     * {@code action} while the customer has to act ({@code three_d_secure}, {@code bank_login}, {@code app_approval}),
     * with the processor's {@code redirectUrl} (null for the sandbox's own pages and for apps).
     */
    public record Attempt(String paymentId, String status, String method, String action, String redirectUrl,
                          PaymentError error, Map<String, Object> paymentMethodDetails) {
    }

    private final PaymentSessions sessions;
    private final Payments payments;
    private final PaymentService service;
    private final PaymentMethods methods;
    private final PaymentProcessors processors;
    private final Merchants merchants;
    private final TransactionTemplate tx;
    private final Rejections rejections;

    Checkout(PaymentSessions sessions, Payments payments, PaymentService service, PaymentMethods methods,
             PaymentProcessors processors, Merchants merchants, TransactionTemplate tx, Rejections rejections) {
        this.sessions = sessions;
        this.payments = payments;
        this.service = service;
        this.methods = methods;
        this.processors = processors;
        this.merchants = merchants;
        this.tx = tx;
        this.rejections = rejections;
    }

    /** The session behind a checkout id; empty for anything else (the page answers 404). */
    public Optional<Page> load(String checkoutSessionId) {
        return find(checkoutSessionId).map(this::page);
    }

    /** Pays by card. The number and code are checked here (Luhn, future expiry) before anything is sent. */
    public Attempt payByCard(String checkoutSessionId, String cardNumber, int expMonth, int expYear, String securityCode) {
        return answered(() -> {
            String number = cardNumber == null ? "" : cardNumber.replaceAll("[ -]", "");
            boolean badNumber = !DIGITS.matcher(number).matches() || !PaymentMethods.luhn(number);
            YearMonth now = YearMonth.now(ZoneOffset.UTC);
            int year = expYear < 100 ? 2000 + expYear : expYear;
            boolean badExpiry = expMonth < 1 || expMonth > 12 || year > now.getYear() + 20
                    || YearMonth.of(year, Math.max(1, Math.min(12, expMonth))).isBefore(now);
            boolean badCode = securityCode == null || !CVC.matcher(securityCode).matches();
            if (badNumber || badExpiry || badCode) {
                throw new PaymentRejection.CardDetailsInvalid(badNumber, badExpiry, badCode).thrown();
            }
            return start(checkoutSessionId, PaymentMethodType.CARD,
                    new PaymentMethodInput.Card(number, expMonth, year, securityCode));
        });
    }

    public Attempt payByBank(String checkoutSessionId, String bank) {
        return answered(() -> {
            if (bank == null || bank.isBlank() || bank.length() > 60) {
                throw new PaymentRejection.BankNotChosen().thrown();
            }
            return start(checkoutSessionId, PaymentMethodType.PAY_BY_BANK, new PaymentMethodInput.Bank(bank.trim()));
        });
    }

    /** A bank app ({@code capitec_pay}) or mobile money: the customer approves on their phone. */
    public Attempt payByPhone(String checkoutSessionId, PaymentMethodType type, String phoneNumber) {
        return answered(() -> {
            if (!type.usesPhone()) {
                throw new PaymentRejection.NotPhoneMethod().thrown();
            }
            PaymentSession session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
            String phone = phoneNumber == null ? "" : phoneNumber.replaceAll("[ ()-]", "");
            if (!SessionOptions.phoneOfCountry(phone, session.country())) {
                throw new PaymentRejection.PhoneNotOfCountry(session.country()).thrown();
            }
            return start(checkoutSessionId, type, new PaymentMethodInput.Phone(type.wire(), phone));
        });
    }

    /** The latest attempt now, after asking the processor about one waiting for the customer. */
    public Optional<Attempt> attempt(String checkoutSessionId) {
        return answered(() -> {
            PaymentSession session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
            Optional<Payment> latest = service.latest(session);
            latest.ifPresent(service::refresh);
            return service.latest(session).map(Checkout::attemptOf);
        });
    }

    /** The customer's answer on the sandbox's 3-D Secure or bank page (test mode only). */
    public Optional<Attempt> decideSandbox(String checkoutSessionId, SandboxProcessor.Decision decision) {
        return answered(() -> {
            PaymentSession session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
            if (session.mode() != Mode.TEST) {
                throw notFound();
            }
            Payment payment = service.latest(session).orElseThrow(Checkout::notFound);
            var waiting = payment.awaitingCustomer();
            if (waiting.isEmpty() || waiting.get().action().equals("app_approval")) {
                throw new PaymentRejection.NotWaitingForPage().thrown();
            }
            processors.sandbox().decide(waiting.get().processorKey(), decision);
            return attempt(checkoutSessionId);
        });
    }

    /** The customer gives up: the session ends {@code cancelled} (no attempt may be in flight). */
    public Page cancel(String checkoutSessionId) {
        return answered(() -> {
            PaymentSession session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
            tx.executeWithoutResult(s -> service.cancel(io.tender.auth.Caller.system(session.merchantId(),
                    session.mode()), sessions.findById(session.id(), true).orElseThrow()));
            return load(checkoutSessionId).orElseThrow();
        });
    }

    /** {@code work}, with its rejection answered as its problem ({@link PaymentProblems}), as the page shows it. */
    private <T> T answered(Supplier<T> work) {
        return rejections.answering(work).get();
    }

    private Attempt start(String checkoutSessionId, PaymentMethodType type, PaymentMethodInput method) {
        PaymentSession session = find(checkoutSessionId).orElseThrow(Checkout::notFound);
        if (!session.options().visibleMethods().contains(type.wire())
                || (session.options().checkoutOptions().selectedPaymentMethod() != null
                && session.options().merchantSelection()
                && !session.options().checkoutOptions().selectedPaymentMethod().equals(type.wire()))) {
            throw new PaymentRejection.MethodNotOffered().thrown();
        }
        // The obligation may refuse the amount now: billing's rejection passes like ours.
        return attemptOf(service.startAttempt(session, method, methods));
    }

    private Optional<PaymentSession> find(String checkoutSessionId) {
        if (checkoutSessionId == null || !CHECKOUT_ID.matcher(checkoutSessionId).matches()) {
            return Optional.empty();
        }
        return sessions.findByCheckout(checkoutSessionId, false);
    }

    private Page page(PaymentSession s) {
        var options = s.options();
        Map<String, String> phones = new java.util.LinkedHashMap<>();
        for (PaymentMethodType type : List.of(PaymentMethodType.CAPITEC_PAY, PaymentMethodType.MOBILE_MONEY)) {
            String phone = options.prefilledPhone(type);
            if (phone != null) {
                phones.put(type.wire(), phone);
            }
        }
        return new Page(s.checkoutSessionId(), s.id(), merchants.byId(s.merchantId()).map(Merchants.Merchant::name)
                .orElse(""), s.mode(), s.amount(), s.currency(), displayAmount(s.amount(), s.currency()),
                s.status().wire(), s.paymentOutcome(), options.visibleMethods(),
                options.checkoutOptions().selectedPaymentMethod(), options.checkoutOptions().presentationMode(),
                !Boolean.FALSE.equals(options.checkoutOptions().displayPayButton()), options.merchantSelection(),
                s.returnUrl(), phones, options.paymentMethodOptions().prefillMode(),
                Math.max(0, PaymentSession.MAX_ATTEMPTS - s.attempts()), s.expiresAt(),
                service.latest(s).map(Checkout::attemptOf), s.country(), s.waitingForMerchant(),
                service.presentOrigin(s).map(o -> new Origin(s.origin().kind(), o.title(), o.description(), o.backUrl(),
                        o.cancellable(), o.status())));
    }

    /** {@code ZAR 150.00}: the currency code and the amount in major units. */
    static String displayAmount(long amount, String currency) {
        return io.tender.api.Currencies.display(amount, currency);
    }

    private static Attempt attemptOf(Payment p) {
        var waiting = p.awaitingCustomer();
        return new Attempt(p.id(), p.status().wire(),
                p.paymentMethodDetails() == null ? null : String.valueOf(p.paymentMethodDetails().get("type")),
                waiting.map(PaymentOperation::action).orElse(null), waiting.map(PaymentOperation::redirectUrl).orElse(null),
                p.lastPaymentError(), p.paymentMethodDetails());
    }

    private static Rejected notFound() {
        return new PaymentRejection.CheckoutNotFound().thrown();
    }
}
