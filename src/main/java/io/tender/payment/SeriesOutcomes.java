package io.tender.payment;

import io.tender.api.Timestamps;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.Optional;

/**
 * What the end of a charge without the customer does to its series (decisions §8), in the transaction that records
 * the payment's final state, whoever finished it (the request, the scheduler, the recovery job): a success counts on
 * the mandate (completing an installment mandate after its last installment); a subscription's period is paid, and
 * the next one scheduled, or declined, and retried or failed for good as {@link Subscription#declined} decides, that
 * decision going on the payment ({@code will_retry}, {@code next_retry_at}) before its event is written. A period
 * already settled (the same payment finished twice) is left alone.
 */
@Component
record SeriesOutcomes(Mandates mandates, Subscriptions subscriptions, SeriesViews views, SeriesSettings settings) {

    private static final Logger log = LoggerFactory.getLogger(SeriesOutcomes.class);

    void settled(PaymentSettlement.Run run) {
        Payment payment = run.payment;
        Payment.SeriesCharge charge = payment.series();
        Instant now = Timestamps.now();
        Mandate mandate = mandates.lock(charge.mandateId());
        boolean succeeded = payment.status() == PaymentStatus.SUCCEEDED;
        if (charge.subscriptionId() == null) {
            if (succeeded) {
                counted(run, mandate, now);
            }
            return;
        }
        Subscription subscription = subscriptions.lock(charge.subscriptionId());
        Subscription.Period period = subscriptions.period(subscription.id(), charge.period());
        if (period.status() != Subscription.PeriodStatus.CHARGING || !payment.id().equals(period.paymentId())) {
            log.info("Period {} of {} was settled already; {} changes nothing", charge.period(), subscription.id(),
                    payment.id());
            return;
        }
        if (succeeded) {
            counted(run, mandate, now);
        }
        var step = succeeded
                ? subscription.paid(period, payment.id(), subscription.today(views.clock().instant()),
                settings.retryDays().size(), now)
                : subscription.declined(period, declineCode(payment), subscription.today(views.clock().instant()),
                settings.retryDays(), now);
        subscriptions.updatePeriod(subscription.id(), step.period());
        step.next().ifPresent(next -> subscriptions.insertPeriod(subscription, next));
        if (step.retry() != null) {
            payment.retried(step.retry());
        }
        subscriptions.update(subscription);
        step.transitions().forEach(t -> run.events.add(() -> views.subscriptionEvent(subscription, t)));
        endMandateWith(run, subscription, mandate, now);
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
    private void counted(PaymentSettlement.Run run, Mandate mandate, Instant now) {
        Optional<Mandate.Transition> ended = mandate.charged(now);
        mandates.update(mandate);
        ended.ifPresent(t -> run.events.add(() -> views.mandateEvent(mandate, t)));
    }

    /** A subscription that ended (cancelled after a final decline, or its last period paid) ends its mandate too. */
    private void endMandateWith(PaymentSettlement.Run run, Subscription subscription, Mandate mandate, Instant now) {
        if (mandate.status() != Mandate.Status.ACTIVE || !subscription.status().ended()) {
            return;
        }
        Mandate.Transition ended = subscription.status() == Subscription.Status.CANCELLED ? mandate.cancel(now)
                : mandate.complete(now);
        mandates.update(mandate);
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
