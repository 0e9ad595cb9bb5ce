package io.tender.billing;

import io.tender.api.Metadata;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;

/**
 * A bill: an amount due from a customer, optionally raised against one of its accounts. It owns its status rule:
 * {@code paid} exactly when {@code amount_paid} reaches {@code amount_due}, and nothing moves a voided bill.
 */
record Bill(String id, String externalReference, String obligationId, String customerId, String accountId,
            BillStatus status, String currency, long amountDue, long amountPaid, LocalDate billDate, LocalDate dueDate,
            PaymentRules paymentRules, Map<String, String> metadata, Instant createdAt, Instant updatedAt)
        implements Obligation {

    long amountRemaining() {
        return amountDue - amountPaid;
    }

    @Override
    public long outstanding() {
        return amountRemaining();
    }

    @Override
    public String noun() {
        return "bill";
    }

    @Override
    public Optional<BillingRejection> stateRejection() {
        return voidedRejection("paid");
    }

    @Override
    public Optional<BillingRejection> limitRejection(long amount) {
        return amountPaid + amount > Amounts.MAX_BALANCE
                ? Optional.of(new BillingRejection.AmountPaidOverLimit(amountPaid, amount, Amounts.MAX_BALANCE))
                : Optional.empty();
    }

    @Override
    public Bill applied(long amount, Instant at) {
        return withAmountPaid(amountPaid + amount, at);
    }

    /**
     * A refund took {@code amount} of a payment back: {@code amount_paid} goes down, and a paid bill is unpaid again
     * once it falls below {@code amount_due}. Never below zero: a correction (PATCH) may have lowered it already. A
     * voided bill stays voided with its amount paid down too: the money left, whatever the bill's state.
     */
    @Override
    public Bill reversed(long amount, Instant at) {
        long paid = Math.max(0, amountPaid - amount);
        return status == BillStatus.VOIDED ? with(BillStatus.VOIDED, paid, at) : withAmountPaid(paid, at);
    }

    /**
     * Manual reconciliation (decisions §4): {@code amount_paid} is replaced (0 to {@code amount_due}), payment rules
     * replaced, metadata merged.
     */
    Bill corrected(BillPatch patch, Instant now) {
        voidedRejection("changed").ifPresent(rejection -> {
            throw rejection.thrown();
        });
        if (patch.amountPaid() != null && patch.amountPaid() > amountDue) {
            throw new BillingRejection.AmountPaidAboveDue(patch.amountPaid(), amountDue).thrown();
        }
        PaymentRules rules = patch.paymentRules() != null ? patch.paymentRules() : paymentRules;
        Bill corrected = new Bill(id, externalReference, obligationId, customerId, accountId, status, currency,
                amountDue, amountPaid, billDate, dueDate, rules, Metadata.merge(metadata, patch.metadata()), createdAt, now);
        return corrected.withAmountPaid(patch.amountPaid() != null ? patch.amountPaid() : amountPaid, now);
    }

    /** Voids an unpaid bill; a voided bill stays as it is; a paid bill cannot be voided. */
    Bill voided(Instant now) {
        return switch (status) {
            case VOIDED -> this;
            case PAID -> throw new BillingRejection.BillPaid().thrown();
            case UNPAID -> new Bill(id, externalReference, obligationId, customerId, accountId, BillStatus.VOIDED,
                    currency, amountDue, amountPaid, billDate, dueDate, paymentRules, metadata, createdAt, now);
        };
    }

    private Bill withAmountPaid(long paid, Instant now) {
        return with(paid >= amountDue ? BillStatus.PAID : BillStatus.UNPAID, paid, now);
    }

    private Bill with(BillStatus nextStatus, long paid, Instant now) {
        return new Bill(id, externalReference, obligationId, customerId, accountId, nextStatus, currency, amountDue,
                paid, billDate, dueDate, paymentRules, metadata, createdAt, now);
    }

    private Optional<BillingRejection> voidedRejection(String attempted) {
        return status == BillStatus.VOIDED ? Optional.of(new BillingRejection.BillVoided(attempted))
                : Optional.empty();
    }
}
