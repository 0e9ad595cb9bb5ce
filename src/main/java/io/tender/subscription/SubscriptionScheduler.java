package io.tender.subscription;

import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.outbox.Outbox;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Instant;

/**
 * The subscriptions' schedule (decisions §8), run by every instance ({@code tender.series.scheduler}): every
 * {@code interval} it sends the notices due, charges the periods due, batch after batch until nothing more is due,
 * and completes the mandates past their end. Several instances on one database share the work without doubling it:
 * every row is claimed with {@code SKIP LOCKED} and leaves its claimable state in the claiming transaction.
 */
@Component
record SubscriptionScheduler(SubscriptionCharges charges, Mandates mandates, Subscriptions subscriptions,
                             SeriesViews views, Outbox outbox, TransactionTemplate tx, SeriesSettings settings,
                             Clock clock) implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionScheduler.class);

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        if (settings.scheduler().enabled()) {
            var interval = settings.scheduler().interval();
            registrar.addFixedDelayTask(new FixedDelayTask(this::run, interval, interval));
        }
    }

    /** One run: every notice and charge due now, then the mandates that ended. Returns the charges made. */
    int run() {
        int charged = 0;
        try {
            int batch = settings.scheduler().batch();
            while (true) {
                Instant now = clock.instant();
                int notices = charges.sendNotices(now, null, batch);
                int made = charges.chargeDue(now, null, batch).size();
                charged += made;
                if (notices < batch && made < batch) {
                    break;
                }
            }
        } catch (RuntimeException e) {
            log.error("The subscriptions' charges stopped; they run again in {}", settings.scheduler().interval(), e);
        }
        try {
            completeEndedMandates(clock.instant());
        } catch (RuntimeException e) {
            log.error("The mandates' ends were not recorded; they are tried again in {}",
                    settings.scheduler().interval(), e);
        }
        return charged;
    }

    /** Mandates past their end date (or last installment's) are {@code completed}, with their subscriptions. */
    void completeEndedMandates(Instant now) {
        tx.executeWithoutResult(s -> {
            for (Mandate mandate : mandates.lockEnded(now, settings.scheduler().batch())) {
                Caller owner = Caller.system(mandate.fixed().merchantId(), mandate.fixed().mode());
                Instant at = Timestamps.now();
                var completed = mandate.complete(at);
                mandates.update(mandate);
                outbox.append(owner, views.mandateEvent(mandate, completed));
                if (mandate.fixed().subscriptionId() != null) {
                    Subscription subscription = subscriptions.lock(mandate.fixed().subscriptionId());
                    subscription.completeWithMandate(at).ifPresent(t -> {
                        subscriptions.update(subscription);
                        subscriptions.lockOpen(subscription.id()).forEach(p -> subscriptions.updatePeriod(
                                subscription.id(), p.ended(Subscription.PeriodStatus.CANCELLED)));
                        outbox.append(owner, views.subscriptionEvent(subscription, t));
                    });
                }
            }
        });
    }
}
