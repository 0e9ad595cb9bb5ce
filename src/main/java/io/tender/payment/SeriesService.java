package io.tender.payment;

import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.idempotency.IdempotencyKeys;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.StoredResponse;
import io.tender.outbox.Outbox;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The merchant's moves on mandates and subscriptions (decisions §8), each its own transaction boundary: cancel a
 * mandate (its subscription with it), cancel or resume a subscription, and a test clock's advance, which runs every
 * notice, charge and retry due up to a date in order, through the same {@link SubscriptionCharges} the scheduler
 * uses. The merchant's moves lock the mandate first, then the subscription, then its periods; the charges' claim
 * holds periods and takes a subscription only if nobody holds it, so the two never wait on each other.
 */
@Service
record SeriesService(Mandates mandates, Subscriptions subscriptions, SubscriptionCharges charges, SeriesViews views,
                     IdempotentRequests idempotent, IdempotencyKeys keys, Outbox outbox, TransactionTemplate tx,
                     JsonMapper json) {

    /** A test clock moves at most this far in one advance: a daily subscription's year of charges. */
    static final int MAX_ADVANCE_DAYS = 366;

    MandateView mandate(Caller caller, String id) {
        return views.mandate(mandates.get(caller, id, false));
    }

    /** The next {@code count} execution dates from today, the amount each would take and whether the limit allows it. */
    List<Mandate.Upcoming> schedule(Caller caller, String id, int count) {
        Mandate mandate = mandates.get(caller, id, false);
        return mandate.upcoming(views.today(mandate), count, (start, end) -> mandates.usage(mandate.id(), start, end));
    }

    /** {@code POST /collect/mandates/{id}/cancel}: it charges nothing more, and its subscription is cancelled. */
    StoredResponse cancelMandate(Caller caller, KeyedRequest request, String id) {
        return idempotent.execute(caller, request, () -> {
            Mandate mandate = mandates.get(caller, id, true);
            if (mandate.status() != Mandate.Status.ACTIVE) {
                throw new SeriesRejection.MandateNotCancellable(mandate.status().wire()).thrown();
            }
            Instant now = Timestamps.now();
            var cancelled = mandate.cancel(now);
            mandates.update(mandate);
            outbox.append(caller, views.mandateEvent(mandate, cancelled));
            if (mandate.fixed().subscriptionId() != null) {
                Subscription subscription = subscriptions.lock(mandate.fixed().subscriptionId());
                if (!subscription.status().ended()) {
                    cancel(caller, subscription, now);
                }
            }
            return new IdempotentRequests.Result(200, views.mandate(mandate));
        });
    }

    SubscriptionView subscription(Caller caller, String id) {
        return SubscriptionView.of(subscriptions.get(caller, id, false));
    }

    /** {@code POST /collect/subscriptions/{id}/cancel}: nothing more is charged; its mandate is cancelled too. */
    StoredResponse cancelSubscription(Caller caller, KeyedRequest request, String id) {
        return idempotent.execute(caller, request, () -> {
            Subscription found = subscriptions.get(caller, id, false);
            Mandate mandate = mandates.lock(found.fixed().mandateId());
            Subscription subscription = subscriptions.lock(found.id());
            if (subscription.status().ended()) {
                throw new SeriesRejection.SubscriptionNotCancellable(subscription.status().wire()).thrown();
            }
            Instant now = Timestamps.now();
            cancel(caller, subscription, now);
            if (mandate.status() == Mandate.Status.ACTIVE) {
                var cancelled = mandate.cancel(now);
                mandates.update(mandate);
                outbox.append(caller, views.mandateEvent(mandate, cancelled));
            }
            return new IdempotentRequests.Result(200, SubscriptionView.of(subscription));
        });
    }

    /** Cancels a locked subscription and its waiting periods, in the caller's transaction. */
    private void cancel(Caller caller, Subscription subscription, Instant now) {
        var cancelled = subscription.cancel(now);
        subscriptions.update(subscription);
        for (Subscription.Period period : subscriptions.lockOpen(subscription.id())) {
            subscriptions.updatePeriod(subscription.id(), period.ended(Subscription.PeriodStatus.CANCELLED));
        }
        outbox.append(caller, views.subscriptionEvent(subscription, cancelled));
    }

    /**
     * {@code POST /collect/subscriptions/{id}/resume}: an {@code unpaid} subscription charges its oldest unpaid
     * period at once (one attempt, no retry after it) and goes on from there. The answer is the subscription after
     * that charge.
     */
    StoredResponse resume(Caller caller, KeyedRequest request, String id) {
        switch (idempotent.start(caller, request, id, () -> {
            Subscription found = subscriptions.get(caller, id, false);
            Mandate mandate = mandates.lock(found.fixed().mandateId());
            Subscription subscription = subscriptions.lock(found.id());
            if (subscription.status() != Subscription.Status.UNPAID) {
                throw new SeriesRejection.SubscriptionNotResumable(subscription.status().wire()).thrown();
            }
            if (mandate.status() != Mandate.Status.ACTIVE) {
                throw new SeriesRejection.MandateEnded(mandate.status().wire()).thrown();
            }
            Instant now = Timestamps.now();
            subscriptions.lockOldestFailed(subscription.id()).ifPresent(failed ->
                    subscriptions.updatePeriod(subscription.id(), subscription.resume(failed, now)));
            subscriptions.update(subscription);
            outbox.append(caller, views.subscriptionEvent(subscription, Subscription.Transition.UPDATED));
            return subscription.id();
        })) {
            case IdempotentRequests.Start.Answered<String>(StoredResponse response) -> {
                return response;
            }
            case IdempotentRequests.Start.Running<String> running -> {
            }
        }
        return releasingOnFailure(caller, request, () -> {
            charges.chargeDue(Timestamps.now(), id, 1);
            return completed(caller, request, SubscriptionView.of(subscriptions.get(caller, id, false)));
        });
    }

    /**
     * {@code POST /collect/test_helpers/subscriptions/{id}/advance} (test mode): moves the subscription's clock to
     * {@code to} and runs, in order, every notice, charge and retry due up to and including that date, as the
     * scheduler would have on each of those days. The clock stops at each due item's date first, so what the item
     * decides (the next period, a retry's date) counts from that day. A clock never moves back (409); advancing to
     * the date it is at already does nothing more. Stops early at a charge whose answer is still unknown.
     */
    StoredResponse advance(Caller caller, KeyedRequest request, String id, LocalDate to) {
        if (caller.mode() != Mode.TEST) {
            throw new SeriesRejection.SubscriptionNotFound().thrown();
        }
        java.time.ZoneId zone;
        switch (idempotent.start(caller, request, id, () -> {
            Subscription subscription = subscriptions.get(caller, id, true);
            LocalDate today = subscription.today(views.clock().instant());
            if (subscription.clockDate() != null && to.isBefore(subscription.clockDate())) {
                throw new SeriesRejection.ClockMovesBack(subscription.clockDate(), to).thrown();
            }
            if (to.isAfter(today.plusDays(MAX_ADVANCE_DAYS))) {
                throw new SeriesRejection.ClockTooFar(today, to, MAX_ADVANCE_DAYS).thrown();
            }
            return subscription.zone();
        })) {
            case IdempotentRequests.Start.Answered<java.time.ZoneId>(StoredResponse response) -> {
                return response;
            }
            case IdempotentRequests.Start.Running<java.time.ZoneId>(java.time.ZoneId subscriptionZone) ->
                    zone = subscriptionZone;
        }
        return releasingOnFailure(caller, request, () -> run(caller, request, id, to, zone));
    }

    /** The advance's second phase: each due item in turn, then the clock to {@code to}. */
    private StoredResponse run(Caller caller, KeyedRequest request, String id, LocalDate to, java.time.ZoneId zone) {
        Instant until = to.plusDays(1).atStartOfDay(zone).toInstant();
        List<PaymentView> made = new ArrayList<>();
        while (true) {
            var next = subscriptions.nextDue(id).filter(due -> due.isBefore(until));
            if (next.isEmpty()) {
                break;
            }
            moveClock(id, LocalDate.ofInstant(next.get(), zone));
            int notices = charges.sendNotices(next.get(), id, 100);
            List<Payment> payments = charges.chargeDue(next.get(), id, 100);
            payments.forEach(p -> made.add(PaymentView.of(p)));
            if ((notices == 0 && payments.isEmpty())
                    || payments.stream().anyMatch(p -> !p.status().isFinal())) {
                break;
            }
        }
        moveClock(id, to);
        return completed(caller, request, SubscriptionView.of(subscriptions.get(caller, id, false), made));
    }

    /** Moves the subscription's test clock forward to {@code date} (never back), in its own transaction. */
    private void moveClock(String id, LocalDate date) {
        tx.executeWithoutResult(s -> {
            Subscription subscription = subscriptions.lock(id);
            if (subscription.clockDate() == null || date.isAfter(subscription.clockDate())) {
                subscription.clockAt(date, Timestamps.now());
                subscriptions.update(subscription);
            }
        });
    }

    /**
     * The second phase of a multi-phase request; if it fails, its key is released so that a retry runs again (the
     * work it repeats is safe to repeat: each period's charge is claimed once, whoever asks).
     */
    private StoredResponse releasingOnFailure(Caller caller, KeyedRequest request,
                                              java.util.function.Supplier<StoredResponse> work) {
        try {
            return work.get();
        } catch (RuntimeException e) {
            if (request.key() != null) {
                tx.executeWithoutResult(s -> keys.release(caller, request.key()));
            }
            throw e;
        }
    }

    /** The 200 answer of a multi-phase request, stored under its key. */
    private StoredResponse completed(Caller caller, KeyedRequest request, SubscriptionView view) {
        StoredResponse response = StoredResponse.json(200, json.writeValueAsBytes(view));
        if (request.key() != null) {
            tx.executeWithoutResult(s -> keys.complete(caller, request.key(), response));
        }
        return response;
    }
}
