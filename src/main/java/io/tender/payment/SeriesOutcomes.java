package io.tender.payment;

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

/**
 * What the end of a charge without the customer does to its series (decisions §8), in the transaction that records
 * the payment's final state, whoever finished it (the request, the scheduler, the recovery job): a success counts on
 * the mandate (completing an installment mandate after its last installment); a subscription's period is paid, and
 * the next one scheduled, or declined, and retried or failed for good as {@link Subscription#declined} decides, that
 * decision going on the payment ({@code will_retry}, {@code next_retry_at}) before its event is written. A period
 * already settled (the same payment finished twice) is left alone. The scheduler's charges end several at a time
 * ({@link #lockAll}, {@link #settledAll}): the same decisions, with each table read and written once for all of them.
 */
@Component
record SeriesOutcomes(Mandates mandates, Subscriptions subscriptions, SeriesViews views, SeriesSettings settings) {

    private static final Logger log = LoggerFactory.getLogger(SeriesOutcomes.class);

    /** One charge's end, its rows locked and written one by one in the caller's transaction. */
    void settled(PaymentSettlement.Run run) {
        Payment.SeriesCharge charge = run.payment.series();
        Mandate mandate = mandates.lock(charge.mandateId());
        Subscription subscription = null;
        Subscription.Period period = null;
        if (charge.subscriptionId() != null) {
            subscription = subscriptions.lock(charge.subscriptionId());
            period = subscriptions.period(subscription.id(), charge.period());
        }
        Changes changes = new Changes();
        settle(run, mandate, subscription, period, changes);
        changes.mandates.values().forEach(mandates::update);
        changes.periods.forEach(p -> subscriptions.updatePeriod(p.subscriptionId(), p.period()));
        changes.newPeriods.forEach(p -> subscriptions.insertPeriod(p.subscription(), p.period()));
        changes.subscriptions.values().forEach(subscriptions::update);
    }

    /** The rows of several subscription charges, locked by {@link #lockAll}. */
    record Locked(Map<String, Mandate> mandates, Map<String, Subscription> subscriptions,
                  Map<Subscriptions.PeriodKey, Subscription.Period> periods) {
    }

    /**
     * Locks and reads the rows of several subscription charges in the caller's transaction, with one query per table:
     * mandates before subscriptions, each in the order of their ids, as {@link #settled} and every other flow takes
     * them; then their periods.
     */
    Locked lockAll(List<PaymentSettlement.Run> runs) {
        return new Locked(mandates.lockAll(runs.stream().map(r -> r.payment.series().mandateId()).toList()),
                subscriptions.lockAll(runs.stream().map(r -> r.payment.series().subscriptionId()).toList()),
                subscriptions.periods(runs.stream().map(r -> new Subscriptions.PeriodKey(
                        r.payment.series().subscriptionId(), r.payment.series().period())).toList()));
    }

    /**
     * The ends of several subscription charges, on their rows as {@link #lockAll} locked them: each decided as
     * {@link #settled} decides it, and each table written in one round trip.
     */
    void settledAll(Locked locked, List<PaymentSettlement.Run> runs) {
        Changes changes = new Changes();
        for (PaymentSettlement.Run run : runs) {
            Payment.SeriesCharge charge = run.payment.series();
            settle(run, locked.mandates().get(charge.mandateId()), locked.subscriptions().get(charge.subscriptionId()),
                    locked.periods().get(new Subscriptions.PeriodKey(charge.subscriptionId(), charge.period())),
                    changes);
        }
        mandates.updateAll(changes.mandates.values());
        subscriptions.updatePeriods(changes.periods);
        subscriptions.insertPeriods(changes.newPeriods);
        subscriptions.updateAll(changes.subscriptions.values());
    }

    /** The rows settling charges changed, to write: each mandate and subscription once, as it ends up. */
    private static final class Changes {
        final Map<String, Mandate> mandates = new LinkedHashMap<>();
        final Map<String, Subscription> subscriptions = new LinkedHashMap<>();
        final List<Subscriptions.PeriodOf> periods = new ArrayList<>();
        final List<Subscriptions.NewPeriod> newPeriods = new ArrayList<>();
    }

    /** What one charge's end changes, decided on its rows as locked ({@code subscription} null: a mandate's charge). */
    private void settle(PaymentSettlement.Run run, Mandate mandate, Subscription subscription,
                        Subscription.Period period, Changes changes) {
        Payment payment = run.payment;
        Payment.SeriesCharge charge = payment.series();
        Instant now = Timestamps.now();
        boolean succeeded = payment.status() == PaymentStatus.SUCCEEDED;
        if (subscription == null) {
            if (succeeded) {
                counted(run, mandate, now, changes);
            }
            return;
        }
        if (period.status() != Subscription.PeriodStatus.CHARGING || !payment.id().equals(period.paymentId())) {
            log.info("Period {} of {} was settled already; {} changes nothing", charge.period(), subscription.id(),
                    payment.id());
            return;
        }
        if (succeeded) {
            counted(run, mandate, now, changes);
        }
        var step = succeeded
                ? subscription.paid(period, payment.id(), subscription.today(views.clock().instant()),
                settings.retryDays().size(), now)
                : subscription.declined(period, declineCode(payment), subscription.today(views.clock().instant()),
                settings.retryDays(), now);
        changes.periods.add(new Subscriptions.PeriodOf(subscription.id(), step.period()));
        step.next().ifPresent(next -> changes.newPeriods.add(new Subscriptions.NewPeriod(subscription, next)));
        if (step.retry() != null) {
            payment.retried(step.retry());
        }
        changes.subscriptions.put(subscription.id(), subscription);
        step.transitions().forEach(t -> run.events.add(() -> views.subscriptionEvent(subscription, t)));
        endMandateWith(run, subscription, mandate, now, changes);
    }

    /**
     * Whether a charge without the customer that never reached the processor is still wanted: its mandate active
     * and, for a subscription's, the subscription neither ended nor unpaid. The recovery job sends it again only then;
     * otherwise it ends as never received, and a subscription's period is settled by that decline.
     */
    boolean stillWanted(Payment payment) {
        Payment.SeriesCharge charge = payment.series();
        if (mandates.byId(charge.mandateId()).status() != Mandate.Status.ACTIVE) {
            return false;
        }
        if (charge.subscriptionId() == null) {
            return true;
        }
        Subscription.Status status = subscriptions.find(charge.subscriptionId()).status();
        return !status.ended() && status != Subscription.Status.UNPAID;
    }

    /** A succeeded charge counts on its mandate, which may be over with it (its last installment). */
    private void counted(PaymentSettlement.Run run, Mandate mandate, Instant now, Changes changes) {
        Optional<Mandate.Transition> ended = mandate.charged(now);
        changes.mandates.put(mandate.id(), mandate);
        ended.ifPresent(t -> run.events.add(() -> views.mandateEvent(mandate, t)));
    }

    /** A subscription that ended (cancelled after a final decline, or its last period paid) ends its mandate too. */
    private void endMandateWith(PaymentSettlement.Run run, Subscription subscription, Mandate mandate, Instant now,
                                Changes changes) {
        if (mandate.status() != Mandate.Status.ACTIVE || !subscription.status().ended()) {
            return;
        }
        Mandate.Transition ended = subscription.status() == Subscription.Status.CANCELLED ? mandate.cancel(now)
                : mandate.complete(now);
        changes.mandates.put(mandate.id(), mandate);
        run.events.add(() -> views.mandateEvent(mandate, ended));
    }

    /** What the retry rules read of a decline: its decline code, or its error code without one. */
    static String declineCode(Payment payment) {
        PaymentError error = payment.lastPaymentError();
        if (error == null) {
            return null;
        }
        return error.declineCode() != null && !error.declineCode().equals("not_received") ? error.declineCode()
                : error.errorCode();
    }
}
