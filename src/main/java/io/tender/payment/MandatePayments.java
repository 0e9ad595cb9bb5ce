package io.tender.payment;

import org.springframework.stereotype.Service;

import java.time.LocalDate;

/**
 * What the payments charged under a mandate took (decisions §8), for the rules its module holds new charges to: read
 * from the payments that did not fail, those in flight included (a draft or pending one may still succeed).
 */
@Service
public class MandatePayments {

    /** What the charges of a mandate dated within a period took: their sum and their count. */
    public record Usage(long amount, int count) {
    }

    /**
     * What a mandate's charges took, for the rules of a new charge: within the period limit's period holding its date,
     * the charges made without the customer, and whether one of those is dated the charge's date.
     */
    public record Taken(Usage period, int offSession, boolean onDate) {
    }

    private final Payments payments;

    MandatePayments(Payments payments) {
        this.payments = payments;
    }

    /**
     * What the charges of the mandate dated from {@code start} to {@code end} (exclusive) add up to, the failed,
     * cancelled and expired ones left out (a draft or pending one may still succeed, so it counts).
     */
    public Usage usage(String mandateId, LocalDate start, LocalDate end) {
        return payments.mandateUsage(mandateId, start, end);
    }

    /**
     * What the mandate's charges took, for the rules of a new charge dated {@code date}, in one read of its payments
     * that did not fail: those dated in the period from {@code periodStart} to {@code periodEnd} (exclusive; both null
     * without a period limit), those made without the customer dated on or after {@code from} (null: all of them),
     * and whether one of those is dated {@code date}. The caller holds the mandate's lock.
     */
    public Taken taken(String mandateId, LocalDate date, LocalDate periodStart, LocalDate periodEnd, LocalDate from) {
        return payments.mandateTaken(mandateId, date, periodStart, periodEnd, from);
    }
}
