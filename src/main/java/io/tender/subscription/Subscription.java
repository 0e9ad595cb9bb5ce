package io.tender.subscription;

import io.tender.payment.ChargeRetry;
import io.tender.api.Ids;
import io.tender.auth.Mode;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A subscription ({@code sub_}, decisions §8): a mandate Tender charges itself, every interval, one {@link Period} at a
 * time. {@code active} while its periods are paid; {@code past_due} while a softly declined period waits for a retry;
 * after the last retry, or at once after a hard decline, {@code unpaid} (nothing more is charged until the merchant
 * resumes it) or {@code cancelled} ({@code on_final_failure}); {@code completed} after its last period. The rules live
 * here and are tested as tables ({@code SubscriptionTest}); the caller writes what a transition returns.
 *
 * <p>Dates are dates in the subscription's zone, computed from the anchor ({@link MandateSchedule}). A period is due
 * at the start of its charge date there; its notice ({@code mandate.payment_upcoming}) {@code notice_days} before,
 * and the charge never runs before its notice has gone. The next period is the first date after the later of the paid
 * period's date and the day the payment was made: dates missed while it was unpaid (or while Tender was down) are not
 * charged later in a burst, and a late payment is never followed by another charge the same day.
 */
final class Subscription {

    static final String PREFIX = "sub_";

    /** Declines worth trying again (decisions §8): the money may be there tomorrow; the rest are hard declines. */
    static final Set<String> SOFT_DECLINES = Set.of("insufficient_funds", "processor_unavailable", "processing_error",
            "unknown");

    enum Status {
        ACTIVE, PAST_DUE, UNPAID, CANCELLED, COMPLETED;

        String wire() {
            return name().toLowerCase();
        }

        static Status fromWire(String wire) {
            return valueOf(wire.toUpperCase());
        }

        boolean ended() {
            return this == CANCELLED || this == COMPLETED;
        }
    }

    /** A change a client sees, named as the event it emits ({@code subscription.<name>}). */
    enum Transition {
        CREATED, UPDATED, CANCELLED;

        String eventType() {
            return "subscription." + name().toLowerCase();
        }
    }

    /**
     * One period Tender charges: {@code number} 1 is the first scheduled charge (the first payment is period 0 and has
     * no row). {@code scheduled} until due, {@code charging} while a payment is in flight (the payment's own flow and
     * the recovery job finish it), {@code retrying} after a soft decline, then {@code paid}, {@code failed} (for
     * good) or {@code cancelled} (its subscription ended first).
     *
     * @param noticeAt        when {@code mandate.payment_upcoming} is due; null once sent, or without notices
     * @param retriesLeft     the retries a soft decline may still use
     * @param firstDeclinedOn the day of its first decline: retries are counted from it
     */
    record Period(int number, LocalDate chargeDate, long amount, PeriodStatus status, int attempts, int retriesLeft,
                  Instant dueAt, Instant noticeAt, LocalDate firstDeclinedOn, String paymentId) {

        Period charging(String payment) {
            return new Period(number, chargeDate, amount, PeriodStatus.CHARGING, attempts + 1, retriesLeft, dueAt,
                    noticeAt, firstDeclinedOn, payment);
        }

        Period noticeSent() {
            return new Period(number, chargeDate, amount, status, attempts, retriesLeft, dueAt, null, firstDeclinedOn,
                    paymentId);
        }

        Period ended(PeriodStatus end) {
            return new Period(number, chargeDate, amount, end, attempts, retriesLeft, dueAt, null, firstDeclinedOn,
                    paymentId);
        }

        boolean open() {
            return status == PeriodStatus.SCHEDULED || status == PeriodStatus.RETRYING;
        }
    }

    enum PeriodStatus {
        SCHEDULED, CHARGING, RETRYING, PAID, FAILED, CANCELLED;

        String wire() {
            return name().toLowerCase();
        }

        static PeriodStatus fromWire(String wire) {
            return valueOf(wire.toUpperCase());
        }
    }

    /**
     * What a subscription is, fixed when it is created: its terms, and its first payment's date, from which (without
     * a start date) its first charge is one interval later.
     */
    record Terms(String id, String merchantId, Mode mode, String mandateId, String customerId, String currency,
                 SubscriptionTerms terms, LocalDate firstPaymentDate, String firstPaymentId, Instant createdAt) {
    }

    /**
     * What a period's end did: the period as it now is, the next one to write (or none), whether the payment will be
     * tried again and when, and the subscription's transitions.
     */
    record Step(Period period, Optional<Period> next, ChargeRetry retry, List<Transition> transitions) {
    }

    private final Terms fixed;
    private final MandateSchedule schedule;
    private Status status;
    private String latestPaymentId;
    private LocalDate clockDate;
    private LocalDate currentPeriodStart;
    private LocalDate currentPeriodEnd;
    private Instant nextChargeAt;
    private int version;
    private Instant updatedAt;
    private Instant cancelledAt;

    private Subscription(Terms fixed) {
        this.fixed = fixed;
        this.schedule = MandateSchedule.of(fixed.terms(), fixed.firstPaymentDate(), fixed.terms().timeZone());
    }

    static String newId() {
        return Ids.newId(PREFIX);
    }

    /** A new subscription and its first period, if its end leaves it one. */
    record Created(Subscription subscription, Optional<Period> first) {
    }

    /**
     * A new subscription after its first payment: {@code active}, its first period scheduled (or {@code completed}
     * at once when its end leaves no date to charge).
     */
    static Created create(Terms terms, int retries) {
        Subscription s = new Subscription(terms);
        s.status = Status.ACTIVE;
        s.version = 1;
        s.updatedAt = terms.createdAt();
        s.latestPaymentId = terms.firstPaymentId();
        s.currentPeriodStart = terms.firstPaymentDate();
        // A start date the customer paid after (a session paid days after it was made) is not charged backdated.
        Optional<Period> first = s.schedule.firstOnOrAfter(terms.firstPaymentDate())
                .map(date -> s.newPeriod(1, date, retries));
        s.scheduled(first);
        if (first.isEmpty()) {
            s.status = Status.COMPLETED;
        }
        return new Created(s, first);
    }

    static Subscription restored(Terms terms, Status status, String latestPaymentId, LocalDate clockDate,
                                 LocalDate currentPeriodStart, LocalDate currentPeriodEnd, Instant nextChargeAt,
                                 int version, Instant updatedAt, Instant cancelledAt) {
        Subscription s = new Subscription(terms);
        s.status = status;
        s.latestPaymentId = latestPaymentId;
        s.clockDate = clockDate;
        s.currentPeriodStart = currentPeriodStart;
        s.currentPeriodEnd = currentPeriodEnd;
        s.nextChargeAt = nextChargeAt;
        s.version = version;
        s.updatedAt = updatedAt;
        s.cancelledAt = cancelledAt;
        return s;
    }

    /**
     * Whether its periods are still charged, under {@code mandate} (its own): neither ended nor {@code unpaid} (which
     * waits for the merchant to resume it), and the mandate still charged. The scheduler starts a period's charge, and
     * the recovery job sends one again, only then.
     */
    boolean stillCharged(Mandate mandate) {
        return !status.ended() && status != Status.UNPAID && mandate.stillCharged();
    }

    /** Period {@code number} on {@code date}: due at the start of the date, its notice {@code notice_days} before. */
    private Period newPeriod(int number, LocalDate date, int retries) {
        int notice = fixed.terms().noticeDays();
        return new Period(number, date, fixed.terms().amount(), PeriodStatus.SCHEDULED, 0, retries, startOf(date),
                notice == 0 ? null : startOf(date.minusDays(notice)), null, null);
    }

    /** The instant a date begins in the subscription's zone. */
    Instant startOf(LocalDate date) {
        return date.atStartOfDay(zone()).toInstant();
    }

    /** The date it is at {@code now} for this subscription: its zone's, or its test clock's when that is later. */
    LocalDate today(Instant now) {
        LocalDate real = LocalDate.ofInstant(now, zone());
        return clockDate != null && clockDate.isAfter(real) ? clockDate : real;
    }

    /**
     * The charge of {@code period}, made on {@code processedOn}, succeeded: the period is paid, the next one is
     * scheduled (or, without more dates, the subscription is {@code completed}), and a {@code past_due} one is
     * {@code active} again. A subscription cancelled while its charge was in flight keeps the money and schedules
     * nothing more.
     */
    Step paid(Period period, String paymentId, LocalDate processedOn, int retries, Instant now) {
        Period paid = period.ended(PeriodStatus.PAID);
        latestPaymentId = paymentId;
        List<Transition> transitions = new ArrayList<>();
        Optional<Period> next = Optional.empty();
        if (!status.ended()) {
            currentPeriodStart = period.chargeDate();
            LocalDate after = processedOn.isAfter(period.chargeDate()) ? processedOn : period.chargeDate();
            next = schedule.next(after).map(date -> newPeriod(period.number() + 1, date, retries));
            scheduled(next);
            Status before = status;
            status = next.isPresent() ? Status.ACTIVE : Status.COMPLETED;
            if (status != before) {
                transitions.add(Transition.UPDATED);
            }
        }
        touch(now);
        return new Step(paid, next, null, transitions);
    }

    /**
     * The charge of {@code period}, made on {@code processedOn}, was declined with {@code code} (the decline code, or
     * the error code without one). A soft decline with retries left waits for the next retry, {@code retryAfter[i]}
     * days after the period's first decline ({@code past_due}); otherwise the period has failed and the subscription
     * is {@code unpaid} or {@code cancelled}, as {@code on_final_failure} says.
     */
    Step declined(Period period, String code, LocalDate processedOn, List<Integer> retryAfterDays, Instant now) {
        LocalDate firstDeclined = period.firstDeclinedOn() != null ? period.firstDeclinedOn() : processedOn;
        boolean soft = code != null && SOFT_DECLINES.contains(code);
        List<Transition> transitions = new ArrayList<>();
        Status before = status;
        // A period keeps the retries it was scheduled with; retries turned off since then leave it none.
        if (soft && period.retriesLeft() > 0 && !retryAfterDays.isEmpty() && !status.ended()) {
            int index = Math.max(0, Math.min(retryAfterDays.size() - period.retriesLeft(), retryAfterDays.size() - 1));
            LocalDate retryOn = firstDeclined.plusDays(retryAfterDays.get(index));
            if (!retryOn.isAfter(processedOn)) {
                retryOn = processedOn.plusDays(1);
            }
            Period retrying = new Period(period.number(), period.chargeDate(), period.amount(),
                    PeriodStatus.RETRYING, period.attempts(), period.retriesLeft() - 1, startOf(retryOn), null,
                    firstDeclined, period.paymentId());
            status = Status.PAST_DUE;
            nextChargeAt = retrying.dueAt();
            if (status != before) {
                transitions.add(Transition.UPDATED);
            }
            touch(now);
            return new Step(retrying, Optional.empty(), new ChargeRetry(true, retrying.dueAt()), transitions);
        }
        Period failed = new Period(period.number(), period.chargeDate(), period.amount(), PeriodStatus.FAILED,
                period.attempts(), period.retriesLeft(), period.dueAt(), null, firstDeclined, period.paymentId());
        if (!status.ended()) {
            nextChargeAt = null;
            currentPeriodEnd = null;
            if (fixed.terms().onFinalFailure() == SubscriptionTerms.OnFinalFailure.CANCELLED) {
                status = Status.CANCELLED;
                cancelledAt = now;
                transitions.add(Transition.CANCELLED);
            } else {
                status = Status.UNPAID;
                transitions.add(Transition.UPDATED);
            }
        }
        touch(now);
        return new Step(failed, Optional.empty(), new ChargeRetry(false, null), transitions);
    }

    /** The merchant (or the end of its mandate) cancels it: nothing more is charged. Not once it has ended. */
    Transition cancel(Instant now) {
        if (status.ended()) {
            throw new IllegalStateException("subscription " + id() + " is " + status.wire());
        }
        status = Status.CANCELLED;
        cancelledAt = now;
        nextChargeAt = null;
        currentPeriodEnd = null;
        touch(now);
        return Transition.CANCELLED;
    }

    /**
     * Its mandate ended past its end date (no period of it waits for a retry): the subscription has nothing more to
     * charge.
     */
    Optional<Transition> completeWithMandate(Instant now) {
        // An unpaid one stays unpaid: its last period was never paid, and with its mandate over it cannot be resumed.
        if (status.ended() || status == Status.UNPAID) {
            return Optional.empty();
        }
        status = Status.COMPLETED;
        nextChargeAt = null;
        touch(now);
        return Optional.of(Transition.UPDATED);
    }

    /**
     * The merchant resumes an {@code unpaid} subscription: its oldest unpaid period (the failed one) is charged at
     * once, one attempt with no retry after it, and the subscription goes on from there ({@code active}).
     */
    Period resume(Period failed, Instant now) {
        if (status != Status.UNPAID) {
            throw new IllegalStateException("subscription " + id() + " is " + status.wire());
        }
        status = Status.ACTIVE;
        Period again = new Period(failed.number(), failed.chargeDate(), failed.amount(), PeriodStatus.RETRYING,
                failed.attempts(), 0, now, null, failed.firstDeclinedOn(), failed.paymentId());
        nextChargeAt = now;
        touch(now);
        return again;
    }

    /** Moves its test clock to {@code date} (test mode): the clock never moves back. */
    void clockAt(LocalDate date, Instant now) {
        if (clockDate != null && date.isBefore(clockDate)) {
            throw new IllegalStateException("a test clock never moves back");
        }
        if (!date.equals(clockDate)) {
            clockDate = date;
            updatedAt = now;
        }
    }

    private void scheduled(Optional<Period> next) {
        currentPeriodEnd = next.map(Period::chargeDate).orElse(null);
        nextChargeAt = next.map(Period::dueAt).orElse(null);
    }

    private void touch(Instant now) {
        version++;
        updatedAt = now;
    }

    String id() { return fixed.id(); }
    Terms fixed() { return fixed; }
    SubscriptionTerms terms() { return fixed.terms(); }
    ZoneId zone() { return fixed.terms().timeZone(); }
    MandateSchedule schedule() { return schedule; }
    Status status() { return status; }
    String latestPaymentId() { return latestPaymentId; }
    LocalDate clockDate() { return clockDate; }
    LocalDate currentPeriodStart() { return currentPeriodStart; }
    LocalDate currentPeriodEnd() { return currentPeriodEnd; }
    Instant nextChargeAt() { return nextChargeAt; }
    int version() { return version; }
    Instant updatedAt() { return updatedAt; }
    Instant cancelledAt() { return cancelledAt; }
}
