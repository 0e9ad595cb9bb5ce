package io.tender.subscription;

import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.idempotency.Answer;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.StoredResponse;
import io.tender.outbox.Outbox;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.util.List;

/**
 * The merchant's moves on mandates and subscriptions (decisions §8), each its own transaction boundary: cancel a
 * mandate (its subscription with it), cancel or resume a subscription (a test clock's advance is {@link TestClocks}).
 * The merchant's moves lock the mandate first, then the subscription, then its periods; the charges' claim
 * holds periods and takes a subscription only if nobody holds it, so the two never wait on each other.
 */
@Service
public record SeriesService(Mandates mandates, Subscriptions subscriptions, SubscriptionCharges charges,
                            SeriesViews views, IdempotentRequests idempotent, Outbox outbox, JsonMapper json) {

    MandateView mandate(Caller caller, String id) {
        return views.mandate(mandates.get(caller, id, false));
    }

    /** The next {@code count} execution dates from today, the amount each would take and whether the limit allows it. */
    List<Mandate.Upcoming> schedule(Caller caller, String id, int count) {
        Mandate mandate = mandates.get(caller, id, false);
        return mandate.upcoming(views.today(mandate), count, (start, end) -> mandates.usage(mandate.id(), start, end));
    }

    /** {@code POST /collect/mandates/{id}/cancel}: it charges nothing more, and its subscription is cancelled. */
    public Answer<MandateView> cancelMandate(Caller caller, KeyedRequest request, String id) {
        return idempotent.answer(caller, request, 200, MandateView.class, () -> {
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
            return views.mandate(mandate);
        });
    }

    SubscriptionView subscription(Caller caller, String id) {
        return SubscriptionView.of(subscriptions.get(caller, id, false));
    }

    /** {@code POST /collect/subscriptions/{id}/cancel}: nothing more is charged; its mandate is cancelled too. */
    public Answer<SubscriptionView> cancelSubscription(Caller caller, KeyedRequest request, String id) {
        return idempotent.answer(caller, request, 200, SubscriptionView.class, () -> {
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
            return SubscriptionView.of(subscription);
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
            case IdempotentRequests.Start.Answered<String>(StoredResponse response, var refusal) -> {
                return response;
            }
            case IdempotentRequests.Start.Running<String> running -> {
            }
        }
        return idempotent.releasingOnFailure(caller, request, () -> {
            charges.chargeDue(Timestamps.now(), id, 1);
            return completed(caller, request, SubscriptionView.of(subscriptions.get(caller, id, false)));
        });
    }

    /** The 200 answer of a multi-phase request, stored under its key. */
    private StoredResponse completed(Caller caller, KeyedRequest request, SubscriptionView view) {
        return idempotent.completed(caller, request, StoredResponse.json(200, json.writeValueAsBytes(view)));
    }
}
