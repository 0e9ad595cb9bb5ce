package io.tender.subscription;

import io.tender.payment.PaymentView;
import io.tender.payment.SeriesPayments;
import io.tender.api.Ids;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.StoredResponse;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A subscription's test clock (decisions §8, test mode): {@code POST /collect/test_helpers/subscriptions/{id}/advance}
 * moves it forward and runs, in order, every notice, charge and retry due up to and including the date asked, through
 * the same {@link SubscriptionCharges} the scheduler uses, each on its own date.
 * <ul>
 * <li>Advances of one subscription run one at a time, on any number of instances: an advance holds the subscription
 * (a lease in its row, renewed at each step), and a second one is answered 409 {@code conflict} with Retry-After, its
 * Idempotency-Key released.</li>
 * <li>The clock never moves past work that is not finished: it stops at each due item's date before running it, so
 * that what the item decides (the next period, a retry's date) counts from that date; a charge whose answer is
 * unknown, or a notice or charge another flow holds (the scheduler's claim, a resume, its charge in flight), keeps
 * the clock at its date. Another flow's item is waited for a little; if it is still not finished, the advance stops
 * there and says so ({@link SubscriptionView.AdvanceStopped}), and the next advance goes on from that date.</li>
 * </ul>
 */
@Service
record TestClocks(Subscriptions subscriptions, SubscriptionCharges charges, SeriesViews views,
                  IdempotentRequests idempotent, TransactionTemplate tx, JsonMapper json) {

    /** A test clock moves at most this far in one advance: a daily subscription's year of charges. */
    static final int MAX_ADVANCE_DAYS = 366;
    /** How long an advance's hold lasts without a step renewing it (an instance that died lets go after this). */
    static final Duration HOLD = Duration.ofMinutes(1);
    /** How long an advance waits for a notice or charge another flow holds before it stops at its date. */
    static final Duration PATIENCE = Duration.ofSeconds(3);
    private static final Duration LOOK_AGAIN = Duration.ofMillis(50);

    /**
     * Moves the subscription's clock to {@code to}, running what is due on the way. A clock never moves back (409);
     * advancing to the date it is at already does nothing more.
     */
    StoredResponse advance(Caller caller, KeyedRequest request, String id, LocalDate to) {
        if (caller.mode() != Mode.TEST) {
            throw new SeriesRejection.SubscriptionNotFound().thrown();
        }
        String holder = Ids.randomHex(16);
        ZoneId zone;
        switch (idempotent.start(caller, request, id, () -> {
            Subscription subscription = subscriptions.get(caller, id, true);
            LocalDate today = subscription.today(views.clock().instant());
            if (subscription.clockDate() != null && to.isBefore(subscription.clockDate())) {
                throw new SeriesRejection.ClockMovesBack(subscription.clockDate(), to).thrown();
            }
            if (to.isAfter(today.plusDays(MAX_ADVANCE_DAYS))) {
                throw new SeriesRejection.ClockTooFar(today, to, MAX_ADVANCE_DAYS).thrown();
            }
            if (!subscriptions.holdClock(id, holder, HOLD)) {
                throw new SeriesRejection.ClockBeingAdvanced(id).thrown();
            }
            return subscription.zone();
        })) {
            case IdempotentRequests.Start.Answered<ZoneId>(StoredResponse response, var refusal) -> {
                return response;
            }
            case IdempotentRequests.Start.Running<ZoneId>(ZoneId subscriptionZone) -> zone = subscriptionZone;
        }
        try {
            return idempotent.releasingOnFailure(caller, request, () -> run(caller, request, id, to, zone, holder));
        } finally {
            tx.executeWithoutResult(s -> subscriptions.releaseClock(id, holder));
        }
    }

    /** The advance's second phase: each due item on its own date, then the clock to {@code to} if nothing stopped it. */
    private StoredResponse run(Caller caller, KeyedRequest request, String id, LocalDate to, ZoneId zone,
                               String holder) {
        Instant until = to.plusDays(1).atStartOfDay(zone).toInstant();
        List<PaymentView> made = new ArrayList<>();
        SubscriptionView.AdvanceStopped stopped = null;
        Instant waitingSince = null;
        while (true) {
            Optional<Subscriptions.OpenWork> open = subscriptions.nextOpen(id).filter(w -> w.at().isBefore(until));
            if (open.isEmpty()) {
                break;
            }
            LocalDate date = LocalDate.ofInstant(open.get().at(), zone);
            moveClock(id, holder, date);
            if (!open.get().charging()) {
                int notices = charges.sendNotices(open.get().at(), id, 100);
                List<SeriesPayments.Charge> payments = charges.chargeDue(open.get().at(), id, 100);
                payments.forEach(p -> made.add(p.view()));
                Optional<SeriesPayments.Charge> unknown = payments.stream().filter(p -> !p.finished()).findFirst();
                if (unknown.isPresent()) {
                    stopped = SubscriptionView.AdvanceStopped.pending(date, unknown.get().paymentId());
                    break;
                }
                if (notices > 0 || !payments.isEmpty()) {
                    waitingSince = null;
                    continue;
                }
            }
            // Another flow holds this item, or its charge is in flight: the clock waits for it, a little.
            Instant now = Instant.now();
            if (waitingSince == null) {
                waitingSince = now; // look again at once: it may have just finished
                continue;
            }
            if (now.isAfter(waitingSince.plus(PATIENCE))) {
                stopped = open.get().charging()
                        ? SubscriptionView.AdvanceStopped.pending(date, open.get().paymentId())
                        : SubscriptionView.AdvanceStopped.held(date);
                break;
            }
            pause();
        }
        if (stopped == null) {
            moveClock(id, holder, to);
        }
        SubscriptionView view = SubscriptionView.advanced(subscriptions.get(caller, id, false), made, stopped);
        return idempotent.completed(caller, request, StoredResponse.json(200, json.writeValueAsBytes(view)));
    }

    /**
     * Moves the subscription's test clock forward to {@code date} (never back), in its own transaction, renewing the
     * advance's hold; an advance that lost its hold (it stalled past the lease and another took over) stops.
     */
    private void moveClock(String id, String holder, LocalDate date) {
        tx.executeWithoutResult(s -> {
            Subscription subscription = subscriptions.lock(id);
            if (!subscriptions.holdClock(id, holder, HOLD)) {
                throw new SeriesRejection.ClockBeingAdvanced(id).thrown();
            }
            if (subscription.clockDate() == null || date.isAfter(subscription.clockDate())) {
                subscription.clockAt(date, Timestamps.now());
                subscriptions.update(subscription);
            }
        });
    }

    private static void pause() {
        try {
            Thread.sleep(LOOK_AGAIN);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a subscription's charge", e);
        }
    }
}
