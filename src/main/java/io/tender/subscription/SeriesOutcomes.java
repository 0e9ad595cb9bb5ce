package io.tender.subscription;

import io.tender.outbox.Outbox;
import io.tender.payment.ChargeOutcomes;
import io.tender.payment.SeriesCharge;
import io.tender.api.Timestamps;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the end of a charge without the customer does to its series (decisions §8), in the transaction that records
 * the payment's final state, whoever finished it (the request, the scheduler, the recovery job): a success counts on
 * the mandate (completing an installment mandate after its last installment); a subscription's period is paid, and
 * the next one scheduled, or declined, and retried or failed for good as {@link Subscription#declined} decides, that
 * decision going on the payment ({@code will_retry}, {@code next_retry_at}) before its event is written. A period
 * already settled (the same payment finished twice) is left alone. The scheduler's charges end several at a time
 * ({@link #lockAll}): the same decisions, with each table read and written once for all of them. Payments call this
 * ({@link ChargeOutcomes}).
 */
@Component
record SeriesOutcomes(Mandates mandates, Subscriptions subscriptions, SeriesViews views, SeriesSettings settings)
        implements ChargeOutcomes {

    private static final Logger log = LoggerFactory.getLogger(SeriesOutcomes.class);

    /** One charge's end, its rows locked and written one by one in the caller's transaction. */
    @Override
    public Decided settled(Ended ended) {
        SeriesCharge charge = ended.charge();
        Mandate mandate = mandates.lock(charge.mandateId());
        Subscription subscription = null;
        Subscription.Period period = null;
        if (charge.subscriptionId() != null) {
            subscription = subscriptions.lock(charge.subscriptionId());
            period = subscriptions.period(subscription.id(), charge.period());
        }
        Changes changes = new Changes();
        Decided decided = settle(ended, mandate, subscription, period, changes);
        changes.mandates.values().forEach(mandates::update);
        changes.periods.forEach(p -> subscriptions.updatePeriod(p.subscriptionId(), p.period()));
        changes.newPeriods.forEach(p -> subscriptions.insertPeriod(p.subscription(), p.period()));
        changes.subscriptions.values().forEach(subscriptions::update);
        return decided;
    }

    /**
     * Locks and reads the rows of several subscription charges in the caller's transaction, with one query per table:
     * mandates before subscriptions, each in the order of their ids, as {@link #settled} and every other flow takes
     * them; then their periods.
     */
    @Override
    public Locked lockAll(List<SeriesCharge> charges) {
        return new Rows(mandates.lockAll(charges.stream().map(SeriesCharge::mandateId).toList()),
                subscriptions.lockAll(charges.stream().map(SeriesCharge::subscriptionId).toList()),
                subscriptions.periods(charges.stream().map(c -> new Subscriptions.PeriodKey(c.subscriptionId(),
                        c.period())).toList()));
    }

    /** The rows of several subscription charges, locked by {@link #lockAll}. */
    private final class Rows implements Locked {
        private final Map<String, Mandate> mandatesById;
        private final Map<String, Subscription> subscriptionsById;
        private final Map<Subscriptions.PeriodKey, Subscription.Period> periods;

        Rows(Map<String, Mandate> mandatesById, Map<String, Subscription> subscriptionsById,
             Map<Subscriptions.PeriodKey, Subscription.Period> periods) {
            this.mandatesById = mandatesById;
            this.subscriptionsById = subscriptionsById;
            this.periods = periods;
        }

        /**
         * The ends of several subscription charges, on their rows as locked: each decided as {@link #settled} decides
         * it, and each table written in one round trip.
         */
        @Override
        public Map<String, Decided> settle(List<Ended> ended) {
            Changes changes = new Changes();
            Map<String, Decided> decided = new LinkedHashMap<>();
            for (Ended end : ended) {
                SeriesCharge charge = end.charge();
                decided.put(end.paymentId(), SeriesOutcomes.this.settle(end, mandatesById.get(charge.mandateId()),
                        subscriptionsById.get(charge.subscriptionId()),
                        periods.get(new Subscriptions.PeriodKey(charge.subscriptionId(), charge.period())), changes));
            }
            mandates.updateAll(changes.mandates.values());
            subscriptions.updatePeriods(changes.periods);
            subscriptions.insertPeriods(changes.newPeriods);
            subscriptions.updateAll(changes.subscriptions.values());
            return decided;
        }
    }

    /** The rows settling charges changed, to write: each mandate and subscription once, as it ends up. */
    private static final class Changes {
        final Map<String, Mandate> mandates = new LinkedHashMap<>();
        final Map<String, Subscription> subscriptions = new LinkedHashMap<>();
        final List<Subscriptions.PeriodOf> periods = new ArrayList<>();
        final List<Subscriptions.NewPeriod> newPeriods = new ArrayList<>();
    }

    /** What one charge's end changes, decided on its rows as locked ({@code subscription} null: a mandate's charge). */
    private Decided settle(Ended ended, Mandate mandate, Subscription subscription, Subscription.Period period,
                           Changes changes) {
        SeriesCharge charge = ended.charge();
        Instant now = Timestamps.now();
        List<Supplier<Outbox.Event>> events = new ArrayList<>();
        if (subscription == null) {
            if (ended.succeeded()) {
                counted(events, mandate, now, changes);
            }
            return new Decided(null, events);
        }
        if (period.status() != Subscription.PeriodStatus.CHARGING || !ended.paymentId().equals(period.paymentId())) {
            log.info("Period {} of {} was settled already; {} changes nothing", charge.period(), subscription.id(),
                    ended.paymentId());
            return Decided.NOTHING;
        }
        if (ended.succeeded()) {
            counted(events, mandate, now, changes);
        }
        var step = ended.succeeded()
                ? subscription.paid(period, ended.paymentId(), subscription.today(views.clock().instant()),
                settings.retryDays().size(), now)
                : subscription.declined(period, ended.declineCode(), subscription.today(views.clock().instant()),
                settings.retryDays(), now);
        changes.periods.add(new Subscriptions.PeriodOf(subscription.id(), step.period()));
        step.next().ifPresent(next -> changes.newPeriods.add(new Subscriptions.NewPeriod(subscription, next)));
        changes.subscriptions.put(subscription.id(), subscription);
        step.transitions().forEach(t -> events.add(() -> views.subscriptionEvent(subscription, t)));
        endMandateWith(events, subscription, mandate, now, changes);
        return new Decided(step.retry(), events);
    }

    /**
     * Whether a charge without the customer that never reached the processor is still wanted: its mandate and, for a
     * subscription's, the subscription still charged ({@link Subscription#stillCharged}). The recovery job sends it again
     * only then; otherwise it ends as never received, and a subscription's period is settled by that decline.
     */
    @Override
    public boolean stillWanted(SeriesCharge charge) {
        Mandate mandate = mandates.byId(charge.mandateId());
        return charge.subscriptionId() == null ? mandate.stillCharged()
                : subscriptions.find(charge.subscriptionId()).stillCharged(mandate);
    }

    /** A succeeded charge counts on its mandate, which may be over with it (its last installment). */
    private void counted(List<Supplier<Outbox.Event>> events, Mandate mandate, Instant now, Changes changes) {
        Optional<Mandate.Transition> ended = mandate.charged(now);
        changes.mandates.put(mandate.id(), mandate);
        ended.ifPresent(t -> events.add(() -> views.mandateEvent(mandate, t)));
    }

    /** A subscription that ended (cancelled after a final decline, or its last period paid) ends its mandate too. */
    private void endMandateWith(List<Supplier<Outbox.Event>> events, Subscription subscription, Mandate mandate,
                                Instant now, Changes changes) {
        if (mandate.status() != Mandate.Status.ACTIVE || !subscription.status().ended()) {
            return;
        }
        Mandate.Transition ended = subscription.status() == Subscription.Status.CANCELLED ? mandate.cancel(now)
                : mandate.complete(now);
        changes.mandates.put(mandate.id(), mandate);
        events.add(() -> views.mandateEvent(mandate, ended));
    }
}
