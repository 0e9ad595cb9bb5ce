package io.tender.billing;

import io.tender.auth.Caller;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.ZoneOffset;
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

    private static PaymentApplication map(ResultSet rs, int row) throws SQLException {
        return new PaymentApplication(rs.getString("payment_id"), rs.getString("obligation_id"),
                rs.getString("customer_id"), rs.getString("account_id"), rs.getString("bill_id"), rs.getLong("amount"),
                rs.getString("currency"), rs.getString("event_id"), rs.getTimestamp("applied_at").toInstant());
    }
}
