package io.tender.billing;

import io.tender.auth.Caller;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/** The {@code billing_payment_applications} table: at most one row per payment (its primary key). */
@Repository
record PaymentApplications(JdbcClient jdbc) {
    void insert(Caller caller, PaymentApplication a) {
        jdbc.sql("""
                        insert into billing_payment_applications (payment_id, obligation_id, merchant_id, mode,
                            customer_id, account_id, bill_id, amount, currency, event_id, applied_at)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(a.paymentId(), a.obligationId(), caller.merchantId(), caller.mode().wire(), a.customerId(),
                        a.accountId(), a.billId(), a.amount(), a.currency(), a.eventId(),
                        a.appliedAt().atOffset(ZoneOffset.UTC))
                .update();
    }

    Optional<PaymentApplication> find(String paymentId) {
        return jdbc.sql("select * from billing_payment_applications where payment_id = ?")
                .params(paymentId)
                .query(PaymentApplications::map).optional();
    }

    /**
     * The payments applied to one of the caller's obligations, oldest first, each with what refunds have reversed of
     * it so far (the dashboard's customer, account and bill pages).
     */
    List<BillingSearch.Applied> ofObligation(Caller caller, String obligationId) {
        return jdbc.sql("""
                        select a.payment_id, a.account_id, a.bill_id, a.amount, a.currency, a.applied_at,
                            coalesce((select sum(r.amount) from billing_payment_reversals r
                                      where r.payment_id = a.payment_id), 0) as reversed
                        from billing_payment_applications a
                        where a.obligation_id = ? and a.merchant_id = ? and a.mode = ?
                        order by a.applied_at, a.payment_id""")
                .params(obligationId, caller.merchantId(), caller.modeWire())
                .query((rs, row) -> new BillingSearch.Applied(rs.getString("payment_id"), rs.getString("account_id"),
                        rs.getString("bill_id"), rs.getLong("amount"), rs.getLong("reversed"),
                        rs.getString("currency"), rs.getTimestamp("applied_at").toInstant()))
                .list();
    }

    private static PaymentApplication map(ResultSet rs, int row) throws SQLException {
        return new PaymentApplication(rs.getString("payment_id"), rs.getString("obligation_id"),
                rs.getString("customer_id"), rs.getString("account_id"), rs.getString("bill_id"), rs.getLong("amount"),
                rs.getString("currency"), rs.getString("event_id"), rs.getTimestamp("applied_at").toInstant());
    }
}
