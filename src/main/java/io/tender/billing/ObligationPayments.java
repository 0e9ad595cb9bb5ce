package io.tender.billing;

import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.database.Transactions;
import io.tender.outbox.Outbox;
import io.tender.payment.Payment;
import io.tender.payment.PaymentObligations;
import io.tender.payment.PaymentStatus;
import io.tender.payment.PaymentView;
import io.tender.payment.Payments;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Applies payments to obligations: the module's facade for whoever receives payments (today the test helper,
 * later Collect). One transaction locks the obligation's row, checks its payment rules, moves its balance or
 * amount paid, records the application (one per payment, by primary key) and writes
 * {@code obligation.amount_applied}. The row lock serializes every payment and correction of one obligation, so
 * concurrent payments add up exactly and the rules see the amount outstanding at that moment. A refund's success
 * reverses its share of an application the same way ({@link #reverseRefunded}, {@code obligation.amount_reversed}).
 */
@Service
public record ObligationPayments(Payments payments, Customers customers, Accounts accounts, Bills bills,
                                 PaymentApplications applications, PaymentReversals reversals, Outbox outbox,
                                 JsonMapper json, TransactionTemplate tx) implements PaymentObligations {

    static final String AGGREGATE = "billing.obligation";

    /** One rule a payment of {@code amount} in {@code currency} must pass: why it refuses, if it does. */
    @FunctionalInterface
    interface PaymentCheck {
        Optional<BillingRejection> rejection(Obligation obligation, long amount, String currency);
    }

    /** A voided bill takes no payment, whatever its terms. */
    static final PaymentCheck STATE = (obligation, amount, currency) -> obligation.stateRejection();

    /**
     * Whether an obligation accepts a payment of this amount and currency now (decisions §4), in this order: not a
     * voided bill, a currency and payment rules set, the same currency, and within the rules.
     */
    static final List<PaymentCheck> TERMS = List.of(
            STATE,
            (obligation, amount, currency) -> obligation.currency() == null
                    ? Optional.of(new BillingRejection.NoCurrency(obligation.noun())) : Optional.empty(),
            (obligation, amount, currency) -> obligation.paymentRules() == null
                    ? Optional.of(new BillingRejection.NoPaymentRules(obligation.noun())) : Optional.empty(),
            (obligation, amount, currency) -> obligation.currency().equals(currency) ? Optional.empty()
                    : Optional.of(new BillingRejection.CurrencyMismatch(obligation.noun(), obligation.currency(),
                    currency)),
            (obligation, amount, currency) -> obligation.paymentRules().rejection(amount, obligation.outstanding(),
                    obligation.noun()));

    /** What it can hold: a bill's amount paid, a balance's credit. */
    static final PaymentCheck LIMITS = (obligation, amount, currency) -> obligation.limitRejection(amount);

    /** A payment applied now: its terms, then the limits. */
    static final List<PaymentCheck> PAYABLE = Stream.concat(TERMS.stream(), Stream.of(LIMITS)).toList();

    /** What applying a payment did. */
    public sealed interface Outcome {
        PaymentApplication application();

        /** The payment moved the obligation just now, and its event was written. */
        record Applied(PaymentApplication application) implements Outcome {
        }

        /** The payment had been applied before; nothing moved again. */
        record AlreadyApplied(PaymentApplication application) implements Outcome {
        }
    }

    /**
     * Applies a succeeded payment to the obligation it was made for, at most once: a payment applied before is
     * answered with its earlier application. A payment the obligation's rules refuse changes nothing (422).
     */
    public Outcome apply(Caller caller, String paymentId) {
        return tx.execute(s -> {
            Payment payment = payments.get(caller, paymentId);
            if (payment.status() != PaymentStatus.SUCCEEDED) {
                throw new BillingRejection.PaymentNotSucceeded(payment.status().wire()).thrown();
            }
            if (payment.obligationId() == null) {
                throw new BillingRejection.NotForObligation().thrown();
            }
            // The lock comes first: a second application of this payment waits here and then finds the first one.
            Obligation obligation = lock(caller, payment.obligationId());
            var earlier = applications.find(payment.id());
            if (earlier.isPresent()) {
                return new Outcome.AlreadyApplied(earlier.get());
            }
            refuseUnless(PAYABLE, obligation, payment.amount(), payment.currency());

            Instant now = Timestamps.now();
            return new Outcome.Applied(
                    record(caller, payment, obligation, obligation.applied(payment.amount(), now), now));
        });
    }

    /** Moves the obligation, writes {@code obligation.amount_applied} and records the application. */
    private PaymentApplication record(Caller caller, Payment payment, Obligation obligation, Obligation after,
                                      Instant now) {
        save(caller, after);
        String eventId = outbox.append(caller, new Outbox.Event(AGGREGATE, obligation.obligationId(),
                AmountApplied.TYPE, now, json.writeValueAsBytes(AmountApplied.of(obligation, payment))));
        PaymentApplication application = new PaymentApplication(payment.id(), obligation.obligationId(),
                obligation.customerId(), obligation.accountId(), obligation instanceof Bill b ? b.id() : null,
                payment.amount(), payment.currency(), eventId, now);
        applications.insert(caller, application);
        return application;
    }

    private void save(Caller caller, Obligation moved) {
        switch (moved) {
            case Customer c -> customers.update(caller, c);
            case Account a -> accounts.update(caller, a);
            case Bill b -> bills.update(caller, b);
        }
    }

    /**
     * The test-mode stand-in for Collect (decisions §4): records a succeeded payment for the named bill, account or
     * customer and applies it, exactly as a real payment will be. A refusal rolls the payment back with the rest.
     */
    PaymentView recordTestPayment(Caller caller, TestPayment request) {
        return tx.execute(s -> {
            Optional<? extends Obligation> found = switch (request.target()) {
                case CUSTOMER -> customers.find(caller, request.reference(), false);
                case ACCOUNT -> accounts.find(caller, request.reference(), false);
                case BILL -> bills.find(caller, request.reference(), false);
            };
            Obligation target = found.orElseThrow(request.target()::notFound);
            Payment payment = payments.recordSucceeded(caller, request.amount(), request.currency(),
                    target.obligationId(), target.customerId());
            apply(caller, payment.id());
            return PaymentView.of(payment);
        });
    }

    @Override
    public Target check(Caller caller, Kind kind, String reference, Long amount, String currency) {
        Obligation obligation = switch (kind) {
            case BILL -> bills.find(caller, reference, false).<Obligation>map(b -> b)
                    .orElseThrow(BillingResource.BILL::notFound);
            case ACCOUNT -> accounts.find(caller, reference, false).<Obligation>map(a -> a)
                    .orElseThrow(BillingResource.ACCOUNT::notFound);
        };
        long due = amount != null ? amount : obligation.outstanding();
        if (due < 1) {
            throw new BillingRejection.NothingOutstanding(obligation.noun(), due).thrown();
        }
        String inCurrency = currency != null ? currency : obligation.currency();
        refuseUnless(TERMS, obligation, due, inCurrency);
        return new Target(obligation.obligationId(), obligation.customerId(), due, inCurrency);
    }

    @Override
    public boolean customerExists(Caller caller, String customerId) {
        return BillingResource.CUSTOMER.namesId(customerId) && customers.find(caller, customerId, false).isPresent();
    }

    @Override
    public List<String> customerIdsByEmail(Caller caller, String email) {
        return customers.idsByEmail(caller, email);
    }

    @Override
    public Map<String, String> customerEmails(Caller caller, Collection<String> customerIds) {
        return customers.emails(caller, customerIds);
    }

    @Override
    public void recheck(Caller caller, String obligationId, long amount, String currency) {
        tx.executeWithoutResult(s -> refuseUnless(TERMS, lock(caller, obligationId), amount, currency));
    }

    @Override
    public Optional<String> applyReceived(Caller caller, String paymentId) {
        Transactions.mandatory("applying a received payment");
        Payment payment = payments.get(caller, paymentId);
        if (payment.obligationId() == null || payment.status() != PaymentStatus.SUCCEEDED) {
            return Optional.empty();
        }
        Obligation obligation = lock(caller, payment.obligationId());
        if (applications.find(payment.id()).isPresent()) {
            return Optional.empty();
        }
        // The money has moved: only what the obligation's state and limits forbid stops it being applied.
        Optional<BillingRejection> refused = firstRejection(List.of(STATE, LIMITS), obligation,
                payment.amount(), payment.currency());
        if (refused.isPresent()) {
            return refused.map(BillingRejection::toString);
        }
        Instant now = Timestamps.now();
        record(caller, payment, obligation, obligation.applied(payment.amount(), now), now);
        return Optional.empty();
    }

    /**
     * Under the obligation's row lock, as every payment and correction of it: a refund's reversal checks what the
     * payment's earlier refunds reversed, moves the obligation back ({@link Obligation#reversed}), writes
     * {@code obligation.amount_reversed} and records the reversal under the refund's id. A voided bill is reversed
     * like any other (its {@code amount_paid} down, still voided): the money left, whatever the bill's state.
     */
    @Override
    public Optional<String> reverseRefunded(Caller caller, String paymentId, String refundId, long amount) {
        Transactions.mandatory("reversing a refunded payment");
        if (amount < 1) {
            throw new IllegalArgumentException("a refund reverses a positive amount, not " + amount);
        }
        Payment payment = payments.get(caller, paymentId);
        if (payment.obligationId() == null) {
            return Optional.empty();
        }
        // The lock comes first: a second reversal of this refund, or another refund of the payment, waits here.
        Obligation obligation = lock(caller, payment.obligationId());
        if (reversals.exists(refundId)) {
            return Optional.empty();
        }
        Optional<PaymentApplication> applied = applications.find(payment.id());
        if (applied.isEmpty()) {
            return Optional.of(new BillingRejection.NeverApplied(payment.id()).toString());
        }
        PaymentApplication application = applied.get();
        long reversed = reversals.reversedOf(payment.id());
        if (reversed + amount > application.amount()) {
            return Optional.of(new BillingRejection.ReversalAboveApplied(payment.id(), application.amount(), reversed,
                    amount).toString());
        }
        Instant now = Timestamps.now();
        save(caller, obligation.reversed(amount, now));
        String eventId = outbox.append(caller, new Outbox.Event(AGGREGATE, obligation.obligationId(),
                AmountReversed.TYPE, now, json.writeValueAsBytes(
                        AmountReversed.of(obligation, application, refundId, amount))));
        reversals.insert(caller, new PaymentReversal(refundId, payment.id(), obligation.obligationId(), amount,
                application.currency(), eventId, now));
        return Optional.empty();
    }

    /** The first of {@code checks} that refuses a payment of {@code amount} in {@code currency}, if one does. */
    static Optional<BillingRejection> firstRejection(List<PaymentCheck> checks, Obligation obligation, long amount,
                                                     String currency) {
        return checks.stream().map(check -> check.rejection(obligation, amount, currency)).flatMap(Optional::stream)
                .findFirst();
    }

    private static void refuseUnless(List<PaymentCheck> checks, Obligation obligation, long amount, String currency) {
        firstRejection(checks, obligation, amount, currency).ifPresent(rejection -> {
            throw rejection.thrown();
        });
    }

    private Obligation lock(Caller caller, String obligationId) {
        return customers.lockByObligation(caller, obligationId).<Obligation>map(c -> c)
                .or(() -> accounts.lockByObligation(caller, obligationId))
                .or(() -> bills.lockByObligation(caller, obligationId))
                .orElseThrow(() -> new BillingRejection.ObligationMissing().thrown());
    }
}
