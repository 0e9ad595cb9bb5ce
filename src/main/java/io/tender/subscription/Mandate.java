package io.tender.subscription;

import io.tender.payment.Acceptance;
import io.tender.api.Ids;
import io.tender.auth.Mode;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A mandate ({@code mdt_}, decisions §8): what a customer agreed to be charged without them, on which saved card, when
 * they paid a {@code first_in_series} session. It owns the charge rules (active, the amount, the execution dates, the
 * period limit) and its counts; a charge's refusal is a {@link SeriesRejection} value. {@code active} until it is
 * {@code cancelled} or {@code completed} (after its last installment, past its end date, or with its subscription).
 * Each transition returns the event it causes.
 */
final class Mandate {

    static final String PREFIX = "mdt_";

    enum Status {
        ACTIVE, CANCELLED, COMPLETED;

        String wire() {
            return name().toLowerCase();
        }

        static Status fromWire(String wire) {
            return valueOf(wire.toUpperCase());
        }
    }

    /** A change a client sees, named as the event it emits ({@code mandate.<name>}). */
    enum Transition {
        CREATED, CANCELLED, COMPLETED;

        String eventType() {
            return "mandate." + name().toLowerCase();
        }
    }

    /** What a period of the period limit holds so far: the charges that did not fail, and their sum. */
    record Usage(long amount, int count) {
        static final Usage NONE = new Usage(0, 0);
    }

    /**
     * What the mandate's charges have taken, as the rules of a new charge count it (decisions §8): every charge that
     * did not fail, those still in flight included, read under the mandate's lock.
     *
     * @param period      the period of the period limit holding the charge's date (the first payment counts in it)
     * @param installments the charges made without the customer (the first payment is not an installment)
     * @param onDate      whether one of those is dated the charge's date
     */
    record Taken(Usage period, int installments, boolean onDate) {
        static final Taken NONE = new Taken(Usage.NONE, 0, false);
    }

    /**
     * What a mandate is, fixed when it is created.
     *
     * @param subscriptionId the subscription whose mandate it is, or null (the merchant charges it)
     */
    record Terms(String id, String merchantId, Mode mode, String customerId, String paymentMethodId,
                 Map<String, Object> paymentMethodDetails, String currency, MandateTerms terms, Acceptance acceptance,
                 String firstPaymentId, String subscriptionId, Map<String, String> metadata, Instant createdAt) {
    }

    private final Terms fixed;
    private final MandateSchedule schedule;
    private Status status;
    private int paymentsCount;
    private int installmentsCharged;
    private int version;
    private Instant updatedAt;
    private Instant cancelledAt;

    private Mandate(Terms fixed, Status status, int paymentsCount, int installmentsCharged, int version,
                    Instant updatedAt, Instant cancelledAt) {
        this.fixed = fixed;
        this.schedule = MandateSchedule.of(fixed.terms());
        this.status = status;
        this.paymentsCount = paymentsCount;
        this.installmentsCharged = installmentsCharged;
        this.version = version;
        this.updatedAt = updatedAt;
        this.cancelledAt = cancelledAt;
    }

    static String newId() {
        return Ids.newId(PREFIX);
    }

    /** A new mandate, {@code active}, its first payment already counted (it is the mandate's first charge). */
    static Mandate created(Terms terms) {
        return new Mandate(terms, Status.ACTIVE, 1, 0, 1, terms.createdAt(), null);
    }

    static Mandate restored(Terms terms, Status status, int paymentsCount, int installmentsCharged, int version,
                            Instant updatedAt, Instant cancelledAt) {
        return new Mandate(terms, status, paymentsCount, installmentsCharged, version, updatedAt, cancelledAt);
    }

    /** Whether anything more is charged under it: only while it is {@code active}. */
    boolean stillCharged() {
        return status == Status.ACTIVE;
    }

    /**
     * Why a charge of {@code amount} in {@code currency} on {@code today} (in the mandate's zone) is refused, or
     * empty: the rules of decisions §8 in the order a merchant fixes them (active, currency, amount, the date: an
     * execution date, or for {@code on_demand} a day from the start date to the end date; an installment left; one
     * charge per execution date; the period limit's count, then its amount). {@code taken}: what the charges that did
     * not fail took so far, those in flight included, counted under the mandate's lock so that concurrent charges
     * each see the others.
     */
    Optional<SeriesRejection> refuseCharge(long amount, String currency, LocalDate today, Taken taken) {
        if (status != Status.ACTIVE) {
            return Optional.of(new SeriesRejection.MandateNotActive(id(), status.wire()));
        }
        if (!fixed.currency().equals(currency)) {
            return Optional.of(new SeriesRejection.CurrencyNotAllowed(fixed.currency(), currency));
        }
        switch (fixed.terms().amount()) {
            case MandateTerms.Fixed f when f.value() != amount ->
                    { return Optional.of(new SeriesRejection.AmountNotFixedValue(f.value(), amount)); }
            case MandateTerms.Variable v when amount < v.min() || amount > v.max() ->
                    { return Optional.of(new SeriesRejection.AmountOutsideRange(v.min(), v.max(), amount)); }
            default -> {
            }
        }
        if (schedule.dated() && !schedule.isExecutionDate(today)) {
            return Optional.of(new SeriesRejection.NotAnExecutionDate(today, schedule.next(today).orElse(null),
                    zone()));
        }
        // The execution dates bound a dated mandate; an on_demand one is bound by the dates the customer agreed to.
        LocalDate start = fixed.terms().startDate();
        LocalDate end = fixed.terms().endDate();
        if (!schedule.dated() && (today.isBefore(start) || (end != null && today.isAfter(end)))) {
            return Optional.of(new SeriesRejection.OutsideMandateDates(today, start, end, zone()));
        }
        Integer installments = fixed.terms().installments();
        if (installments != null && taken.installments() >= installments) {
            return Optional.of(new SeriesRejection.NoInstallmentLeft(id(), installments, taken.installments()));
        }
        if (schedule.dated() && taken.onDate()) {
            return Optional.of(new SeriesRejection.AlreadyChargedOnDate(today, zone()));
        }
        var limit = fixed.terms().periodLimit();
        var period = schedule.period(today);
        Usage usage = taken.period();
        if (limit != null && period.isPresent()) {
            LocalDate last = period.get().end().minusDays(1);
            if (!limit.allowsCount(usage.count() + 1)) {
                return Optional.of(new SeriesRejection.PeriodCountExceeded(limit.maxCount(), usage.count(),
                        period.get().start(), last));
            }
            if (!limit.allowsAmount(usage.amount() + amount)) {
                return Optional.of(new SeriesRejection.PeriodAmountExceeded(limit.maxAmount(), usage.amount(), amount,
                        period.get().start(), last, fixed.currency()));
            }
        }
        return Optional.empty();
    }

    /**
     * A charge of it succeeded: counted, and an installment mandate whose last installment this was is completed.
     * Returns the transition, if the mandate ended.
     */
    Optional<Transition> charged(Instant now) {
        paymentsCount++;
        if (fixed.terms().type() == MandateTerms.Type.INSTALLMENT) {
            installmentsCharged++;
        }
        touch(now);
        if (status == Status.ACTIVE && fixed.terms().installments() != null
                && installmentsCharged >= fixed.terms().installments()) {
            return Optional.of(complete(now));
        }
        return Optional.empty();
    }

    /** The merchant (or the end of its subscription) cancels it: it charges nothing more. Only an active one. */
    Transition cancel(Instant now) {
        if (status != Status.ACTIVE) {
            throw new IllegalStateException("mandate " + id() + " is " + status.wire());
        }
        status = Status.CANCELLED;
        cancelledAt = now;
        touch(now);
        return Transition.CANCELLED;
    }

    /** Past its end date, after its last installment, or with its completed subscription. Only an active one. */
    Transition complete(Instant now) {
        if (status != Status.ACTIVE) {
            throw new IllegalStateException("mandate " + id() + " is " + status.wire());
        }
        status = Status.COMPLETED;
        touch(now);
        return Transition.COMPLETED;
    }

    private void touch(Instant now) {
        version++;
        updatedAt = now;
    }

    /** The next date it may be charged on, on or after {@code today}; empty for on_demand and once it has ended. */
    Optional<LocalDate> nextExecutionDate(LocalDate today) {
        if (status != Status.ACTIVE) {
            return Optional.empty();
        }
        return schedule.next(today.minusDays(1));
    }

    /** A coming execution date: the amount it would take (null for a variable amount) and whether the limit allows it. */
    record Upcoming(LocalDate date, Long amount, boolean allowed) {
    }

    /**
     * The next {@code count} (at most 24) execution dates from {@code today}, for the merchant to see what the rules
     * mean before money moves: each with the amount it would take and whether the period limit allows it, counting
     * what {@code usage} says each period took so far plus the dates listed before it (a variable amount counts its
     * minimum). None once the mandate has ended, for {@code on_demand}, or past the remaining installments.
     */
    List<Upcoming> upcoming(LocalDate today, int count, java.util.function.BiFunction<LocalDate, LocalDate, Usage> usage) {
        if (status != Status.ACTIVE || !schedule.dated()) {
            return List.of();
        }
        Integer remaining = installmentsRemaining();
        List<LocalDate> dates = schedule.upcoming(today, count);
        if (remaining != null && dates.size() > remaining) {
            dates = dates.subList(0, remaining);
        }
        Long fixedAmount = fixed.terms().amount() instanceof MandateTerms.Fixed f ? f.value() : null;
        long smallest = fixedAmount != null ? fixedAmount : ((MandateTerms.Variable) fixed.terms().amount()).min();
        var limit = fixed.terms().periodLimit();
        Map<LocalDate, Usage> periods = new java.util.HashMap<>();
        List<Upcoming> upcoming = new java.util.ArrayList<>();
        for (LocalDate date : dates) {
            boolean allowed = true;
            var period = schedule.period(date);
            if (limit != null && period.isPresent()) {
                Usage used = periods.computeIfAbsent(period.get().start(),
                        start -> usage.apply(start, period.get().end()));
                allowed = limit.allowsCount(used.count() + 1) && limit.allowsAmount(used.amount() + smallest);
                if (allowed) {
                    periods.put(period.get().start(), new Usage(used.amount() + smallest, used.count() + 1));
                }
            }
            upcoming.add(new Upcoming(date, fixedAmount, allowed));
        }
        return List.copyOf(upcoming);
    }

    /** What remains of an installment mandate's installments; null for the other types. */
    Integer installmentsRemaining() {
        Integer installments = fixed.terms().installments();
        return installments == null ? null : Math.max(0, installments - installmentsCharged);
    }

    /**
     * When it completes by itself: the start of the day after its end date, or after its last installment's date, in
     * its zone; null when it has no end.
     */
    Instant endsAt() {
        LocalDate last = fixed.terms().installments() != null ? lastInstallment() : fixed.terms().endDate();
        return last == null ? null : last.plusDays(1).atStartOfDay(fixed.terms().timeZone()).toInstant();
    }

    /** The date of the last installment (at most 1000 of them); the start date when the end date leaves none. */
    private LocalDate lastInstallment() {
        return schedule.last().orElse(fixed.terms().startDate());
    }

    String id() { return fixed.id(); }
    Terms fixed() { return fixed; }
    MandateTerms terms() { return fixed.terms(); }
    MandateSchedule schedule() { return schedule; }
    String zone() { return fixed.terms().timeZone().getId(); }
    Status status() { return status; }
    int paymentsCount() { return paymentsCount; }
    int installmentsCharged() { return installmentsCharged; }
    int version() { return version; }
    Instant updatedAt() { return updatedAt; }
    Instant cancelledAt() { return cancelledAt; }
}
