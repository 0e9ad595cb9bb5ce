package io.tender.billing;

import io.tender.auth.Caller;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.ZoneOffset;

/** The {@code billing_payment_reversals} table: at most one row per refund (its primary key). */
@Repository
record PaymentReversals(JdbcClient jdbc) {
    void insert(Caller caller, PaymentReversal r) {
        jdbc.sql("""
                        insert into billing_payment_reversals (refund_id, payment_id, obligation_id, merchant_id, mode,
                            amount, currency, event_id, reversed_at)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(r.refundId(), r.paymentId(), r.obligationId(), caller.merchantId(), caller.mode().wire(),
                        r.amount(), r.currency(), r.eventId(), r.reversedAt().atOffset(ZoneOffset.UTC))
                .update();
    }

    boolean exists(String refundId) {
        return jdbc.sql("select exists (select 1 from billing_payment_reversals where refund_id = ?)")
                .params(refundId).query(Boolean.class).single();
    }

    /** What the refunds of one payment have reversed so far. */
    long reversedOf(String paymentId) {
        return jdbc.sql("select coalesce(sum(amount), 0) from billing_payment_reversals where payment_id = ?")
                .params(paymentId).query(Long.class).single();
    }
}
