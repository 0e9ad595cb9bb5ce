package io.tender.subscription;

import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.outbox.Outbox;
import io.tender.payment.SeriesCharge;
import io.tender.payment.SeriesPayments;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Tender's own charges of subscriptions (decisions §8), as the scheduler of any instance, a test clock or a resume
 * runs them. Each due period is a row: one transaction claims a batch of them ({@code FOR UPDATE SKIP LOCKED}) and,
 * for each, records its payment pending under a processor key derived from the subscription, the period and the
 * attempt, and moves the period to {@code charging} (so no instance claims it again); then the kept cards are
 * charged, with no transaction open, and {@link SeriesPayments#finishAll} records the answers, each period's fate
 * ({@link SeriesOutcomes}) with its own, in one transaction. A crash anywhere leaves a pending payment the recovery job
 * finishes: it asks the processor, and sends again (under a fresh key) only a charge the processor never received
 * while its subscription and mandate still want it. The claim holds each period's subscription ({@code SKIP LOCKED}: a
 * cancel in progress keeps the period for the next run), so a subscription cancelled before the claim is never charged
 * by it. A batch that cannot be started together is started a period at a time, and a period whose start fails (an
 * error of its own) is postponed while the others go on. Only the modes with a processor are charged. Notices
 * ({@code mandate.payment_upcoming}) are claimed the same way.
 */
@Service
class SubscriptionCharges {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionCharges.class);

    private final Subscriptions subscriptions;
    private final Mandates mandates;
    private final SeriesPayments payments;
    private final SeriesViews views;
    private final Outbox outbox;
    private final TransactionTemplate tx;
    /** One period's start inside the claim: its failure rolls back to here, not the whole batch. */
    private final TransactionTemplate eachPeriod;
    private final Semaphore inFlight;
    private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();

    SubscriptionCharges(Subscriptions subscriptions, Mandates mandates, SeriesPayments payments, SeriesViews views,
                        Outbox outbox, TransactionTemplate tx, SeriesSettings settings) {
        this.subscriptions = subscriptions;
        this.mandates = mandates;
        this.payments = payments;
        this.views = views;
        this.outbox = outbox;
        this.tx = tx;
        this.eachPeriod = new TransactionTemplate(Objects.requireNonNull(tx.getTransactionManager()));
        this.eachPeriod.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
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
     * returns their charges as they stand afterwards ({@code pending} while an answer is unknown). The calls go out
     * at most {@code concurrency} at a time; the answers are then written together ({@link SeriesPayments#finishAll}).
     */
    List<SeriesPayments.Charge> chargeDue(Instant now, String subscriptionId, int limit) {
        List<SeriesPayments.Charge> charges = tx.execute(s -> claim(now, subscriptionId, limit));
        if (charges == null || charges.isEmpty()) {
            return List.of();
        }
        List<Future<Boolean>> called = new ArrayList<>(charges.size());
        for (SeriesPayments.Charge charge : charges) {
            called.add(calls.submit(() -> call(charge)));
        }
        List<SeriesPayments.Charge> settled = new ArrayList<>(charges.size());
        for (int i = 0; i < called.size(); i++) {
            try {
                if (called.get(i).get()) {
                    settled.add(charges.get(i));
                }
            } catch (Exception e) {
                // The payment stays pending under its lease: the recovery job asks the processor and finishes it.
                log.error("Charge {} failed before its answer was recorded; the recovery job will finish it",
                        charges.get(i).paymentId(), e);
            }
        }
        if (!settled.isEmpty()) {
            try {
                payments.finishAll(settled);
            } catch (RuntimeException e) {
                log.error("The answers of {} charges ({} …) could not be recorded; the recovery job will finish them",
                        settled.size(), settled.getFirst().paymentId(), e);
            }
        }
        return charges;
    }

    /** A period whose charge failed to start waits this long before it is tried again. */
    static final Duration POSTPONED = Duration.ofMinutes(1);

    /**
     * The claim, in one transaction: each due period's payment is recorded pending and the period is
     * {@code charging}; a period whose subscription or mandate ended meanwhile is cancelled instead; one whose
     * subscription another transaction holds is left for the next run. What the periods are charged under is read once
     * for the batch (a query per table), and the payments and the periods' moves are written in one round trip each.
     * If the batch fails to start, each period is started on its own, and one that fails is postponed.
     */
    private List<SeriesPayments.Charge> claim(Instant now, String subscriptionId, int limit) {
        List<String> modes = payments.modes().stream().map(Mode::wire).toList();
        List<Subscriptions.Due> claimed = subscriptions.lockDueCharges(now, subscriptionId, limit, modes);
        if (claimed.isEmpty()) {
            return List.of();
        }
        Instant recorded = Timestamps.now();
        try {
            return eachPeriod.execute(s -> start(claimed, recorded));
        } catch (RuntimeException batch) {
            log.warn("A batch of {} subscription periods could not be started together; each is started on its own",
                    claimed.size(), batch);
        }
        List<SeriesPayments.Charge> charges = new ArrayList<>();
        for (Subscriptions.Due due : claimed) {
            try {
                charges.addAll(eachPeriod.execute(s -> start(List.of(due), recorded)));
            } catch (RuntimeException e) {
                log.error("The charge of period {} of {} could not be started; it is tried again in {}",
                        due.period().number(), due.subscriptionId(), POSTPONED, e);
                subscriptions.postpone(due.subscriptionId(), due.period().number(), recorded.plus(POSTPONED));
            }
        }
        return charges;
    }

    /** Claimed periods: each one's payment recorded pending and the period {@code charging}, or nothing to charge. */
    private List<SeriesPayments.Charge> start(List<Subscriptions.Due> claimed, Instant recorded) {
        Map<String, Subscription> owners = subscriptions.lockAllUnlessHeld(claimed.stream()
                .map(Subscriptions.Due::subscriptionId).toList());
        Map<String, Mandate> mandatesById = mandates.byIds(owners.values().stream()
                .map(s -> s.fixed().mandateId()).distinct().toList());
        Set<String> chargeable = payments.chargeable(mandatesById.values().stream()
                .map(m -> m.fixed().paymentMethodId()).toList());
        List<SeriesPayments.Order> orders = new ArrayList<>();
        List<Subscription.Period> charging = new ArrayList<>();
        List<Subscriptions.PeriodOf> moved = new ArrayList<>();
        for (Subscriptions.Due due : claimed) {
            Subscription subscription = owners.get(due.subscriptionId());
            if (subscription == null) {
                continue; // held by a cancel or resume in progress: the next run sees what it decided
            }
            Mandate mandate = mandatesById.get(subscription.fixed().mandateId());
            if (!subscription.stillCharged(mandate) || !chargeable.contains(mandate.fixed().paymentMethodId())) {
                moved.add(new Subscriptions.PeriodOf(due.subscriptionId(),
                        due.period().ended(Subscription.PeriodStatus.CANCELLED)));
                continue;
            }
            Subscription.Period period = due.period();
            Subscription.Terms terms = subscription.fixed();
            orders.add(new SeriesPayments.Order(terms.merchantId(), terms.mode(), terms.customerId(),
                    mandate.fixed().paymentMethodId(), period.amount(), terms.currency(),
                    SeriesCharge.ofPeriod(mandate.id(), period.chargeDate(), subscription.id(), period.number(),
                            period.attempts() + 1)));
            charging.add(period);
        }
        List<SeriesPayments.Charge> charges = payments.start(orders, recorded);
        for (int i = 0; i < charges.size(); i++) {
            moved.add(new Subscriptions.PeriodOf(orders.get(i).charge().subscriptionId(),
                    charging.get(i).charging(charges.get(i).paymentId())));
        }
        subscriptions.updatePeriods(moved);
        return charges;
    }

    /**
     * One charge's call, through the kernel, at most {@code concurrency} at a time: true when it settled (its answer
     * is then written with the others'); an unknown outcome is written at once, for the recovery job.
     */
    private boolean call(SeriesPayments.Charge charge) throws InterruptedException {
        inFlight.acquire();
        try {
            return payments.send(charge);
        } finally {
            inFlight.release();
        }
    }

    private static Caller owner(Subscription subscription) {
        return Caller.system(subscription.fixed().merchantId(), subscription.fixed().mode());
    }
}
