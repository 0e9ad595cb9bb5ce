package io.tender.payment;

import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.outbox.Outbox;
import io.tender.processor.PaymentProcessors;
import io.tender.settlement.StaleWrite;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Tender's own charges of subscriptions (decisions §8), as the scheduler of any instance, a test clock or a resume
 * runs them. Each due period is a row: one transaction claims a batch of them ({@code FOR UPDATE SKIP LOCKED}) and,
 * for each, records its payment pending under a processor key derived from the subscription, the period and the
 * attempt, and moves the period to {@code charging} (so no instance claims it again); then the kept cards are
 * charged, with no transaction open, and {@link PaymentSettlement#finish} records each answer, the period's fate
 * ({@link SeriesOutcomes}) with it. A crash anywhere leaves a pending payment the recovery job finishes: it asks the
 * processor, and sends again (under a fresh key) only a charge the processor never received while its subscription
 * and mandate still want it. The claim holds each period's subscription ({@code SKIP LOCKED}: a cancel in progress
 * keeps the period for the next run), so a subscription cancelled before the claim is never charged by it. A period
 * whose charge cannot be started (an error of its own) is postponed, and the others go on. Only the modes with a
 * processor are charged. Notices ({@code mandate.payment_upcoming}) are claimed the same way.
 */
@Service
class SubscriptionCharges {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionCharges.class);

    private final Subscriptions subscriptions;
    private final Mandates mandates;
    private final SavedPaymentMethods methods;
    private final Payments payments;
    private final PaymentProcessors processors;
    private final PaymentSettlement settlement;
    private final SeriesViews views;
    private final Outbox outbox;
    private final TransactionTemplate tx;
    /** One period's start inside the claim: its failure rolls back to here, not the whole batch. */
    private final TransactionTemplate eachPeriod;
    private final Semaphore inFlight;
    private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();

    SubscriptionCharges(Subscriptions subscriptions, Mandates mandates, SavedPaymentMethods methods, Payments payments,
                        PaymentProcessors processors, PaymentSettlement settlement, SeriesViews views, Outbox outbox,
                        TransactionTemplate tx, SeriesSettings settings) {
        this.subscriptions = subscriptions;
        this.mandates = mandates;
        this.methods = methods;
        this.payments = payments;
        this.processors = processors;
        this.settlement = settlement;
        this.views = views;
        this.outbox = outbox;
        this.tx = tx;
        this.eachPeriod = new TransactionTemplate(java.util.Objects.requireNonNull(tx.getTransactionManager()));
        this.eachPeriod.setPropagationBehavior(org.springframework.transaction.TransactionDefinition.PROPAGATION_NESTED);
        this.inFlight = new Semaphore(settings.scheduler().concurrency());
    }

    /**
     * Sends the notices due by {@code now} (of one subscription, or of all for null), at most {@code limit}: each
     * {@code mandate.payment_upcoming} once, in the transaction that marks it sent. Returns how many went.
     */
    int sendNotices(Instant now, String subscriptionId, int limit) {
        Integer sent = tx.execute(s -> {
            var due = subscriptions.lockDueNotices(now, subscriptionId, limit);
            for (Subscriptions.Due notice : due) {
                Subscription subscription = subscriptions.find(notice.subscriptionId());
                subscriptions.updatePeriod(notice.subscriptionId(), notice.period().noticeSent());
                outbox.append(owner(subscription), views.upcoming(subscription, notice.period(), Timestamps.now()));
            }
            return due.size();
        });
        return sent == null ? 0 : sent;
    }

    /**
     * Charges the periods due by {@code now} (of one subscription, or of all for null), at most {@code limit}, and
     * returns their payments as they stand afterwards ({@code pending} while an answer is unknown).
     */
    List<Payment> chargeDue(Instant now, String subscriptionId, int limit) {
        List<PaymentSettlement.Run> runs = tx.execute(s -> claim(now, subscriptionId, limit));
        if (runs == null || runs.isEmpty()) {
            return List.of();
        }
        List<Future<Payment>> charged = new ArrayList<>(runs.size());
        for (PaymentSettlement.Run run : runs) {
            charged.add(calls.submit(() -> charge(run)));
        }
        List<Payment> done = new ArrayList<>(runs.size());
        for (int i = 0; i < charged.size(); i++) {
            try {
                done.add(charged.get(i).get());
            } catch (Exception e) {
                // The payment stays pending under its lease: the recovery job asks the processor and finishes it.
                log.error("Charge {} failed before its answer was recorded; the recovery job will finish it",
                        runs.get(i).payment.id(), e);
                done.add(runs.get(i).payment);
            }
        }
        return done;
    }

    /** A period whose charge failed to start waits this long before it is tried again. */
    static final java.time.Duration POSTPONED = java.time.Duration.ofMinutes(1);

    /**
     * The claim, in one transaction: each due period's payment is recorded pending and the period is
     * {@code charging}; a period whose subscription or mandate ended meanwhile is cancelled instead; one whose
     * subscription another transaction holds is left for the next run; one whose start fails is postponed.
     */
    private List<PaymentSettlement.Run> claim(Instant now, String subscriptionId, int limit) {
        List<PaymentSettlement.Run> runs = new ArrayList<>();
        Instant recorded = Timestamps.now();
        List<String> modes = java.util.Arrays.stream(io.tender.auth.Mode.values())
                .filter(m -> processors.find(m).isPresent()).map(io.tender.auth.Mode::wire).toList();
        for (Subscriptions.Due due : subscriptions.lockDueCharges(now, subscriptionId, limit, modes)) {
            try {
                eachPeriod.executeWithoutResult(s -> start(due, recorded).ifPresent(runs::add));
            } catch (RuntimeException e) {
                log.error("The charge of period {} of {} could not be started; it is tried again in {}",
                        due.period().number(), due.subscriptionId(), POSTPONED, e);
                subscriptions.postpone(due.subscriptionId(), due.period().number(), recorded.plus(POSTPONED));
            }
        }
        return runs;
    }

    /** One claimed period: its payment recorded pending and the period {@code charging}, or nothing to charge. */
    private java.util.Optional<PaymentSettlement.Run> start(Subscriptions.Due due, Instant recorded) {
        var held = subscriptions.lockUnlessHeld(due.subscriptionId());
        if (held.isEmpty()) {
            return java.util.Optional.empty();
        }
        Subscription subscription = held.get();
        Mandate mandate = mandates.byId(subscription.fixed().mandateId());
        var card = methods.kept(mandate.fixed().paymentMethodId());
        if (subscription.status().ended() || subscription.status() == Subscription.Status.UNPAID
                || mandate.status() != Mandate.Status.ACTIVE || card.isEmpty()) {
            subscriptions.updatePeriod(due.subscriptionId(), due.period().ended(Subscription.PeriodStatus.CANCELLED));
            return java.util.Optional.empty();
        }
        Subscription.Period period = due.period();
        SavedPaymentMethod method = methods.byId(mandate.fixed().paymentMethodId());
        Subscription.Terms terms = subscription.fixed();
        Payment payment = Payment.charge(new Payment.Terms(terms.merchantId(), terms.mode(), Payment.Intent.PAYMENT,
                        Payment.CaptureMethod.AUTOMATIC, period.amount(), terms.currency(), "ZA",
                        terms.customerId(), null), null, method,
                Payment.SeriesCharge.ofPeriod(mandate.id(), period.chargeDate(), subscription.id(), period.number(),
                        period.attempts() + 1), null, recorded);
        payment.beginAuthorization(recorded);
        payments.insert(payment, settlement.lease());
        subscriptions.updatePeriod(subscription.id(), period.charging(payment.id()));
        return java.util.Optional.of(settlement.new Run(owner(subscription), payment, null,
                processors.forMode(terms.mode()), card.get()));
    }

    /** One charge: its call, through the kernel, and its answer recorded; at most {@code concurrency} at a time. */
    private Payment charge(PaymentSettlement.Run run) throws InterruptedException {
        inFlight.acquire();
        try {
            settlement.settleAndFinish(run);
        } catch (StaleWrite e) {
            log.debug("{} was moved by another writer meanwhile", run.payment.id());
        } finally {
            inFlight.release();
        }
        return run.payment;
    }

    private static Caller owner(Subscription subscription) {
        return Caller.system(subscription.fixed().merchantId(), subscription.fixed().mode());
    }
}
