package io.tender.payment;

import io.tender.api.ApiException;
import io.tender.api.Ids;
import io.tender.api.ProblemCode;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

/** The {@code payments} table, and the module's facade for other modules. */
@Repository
public class Payments {

    public static final String PREFIX = "pay_";

    private final JdbcClient jdbc;

    Payments(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Records a payment that has succeeded in full, for one obligation. Runs in the caller's transaction, so that
     * the payment and what it pays for commit together.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Payment recordSucceeded(Caller caller, long amount, String currency, String obligationId) {
        Instant now = Timestamps.now();
        Payment payment = new Payment(Ids.newId(PREFIX), caller.mode(), PaymentStatus.SUCCEEDED, amount, currency,
                amount, obligationId, now, now);
        jdbc.sql("""
                        insert into payments (id, merchant_id, mode, status, amount, currency, paid_amount, obligation_id,
                            created_at, updated_at)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(payment.id(), caller.merchantId(), caller.mode().wire(), payment.status().wire(),
                        payment.amount(), payment.currency(), payment.paidAmount(), payment.obligationId(),
                        now.atOffset(ZoneOffset.UTC), now.atOffset(ZoneOffset.UTC))
                .update();
        return payment;
    }

    public Optional<Payment> find(Caller caller, String id) {
        return jdbc.sql("select * from payments where id = ? and merchant_id = ? and mode = ?")
                .params(id, caller.merchantId(), caller.mode().wire())
                .query(Payments::map).optional();
    }

    /** The payment, or 404 {@code payment_not_found} for unknown ids and other merchants' or modes' payments. */
    public Payment get(Caller caller, String id) {
        return find(caller, id).orElseThrow(() -> new ApiException(ProblemCode.PAYMENT_NOT_FOUND, "No such payment."));
    }

    private static Payment map(ResultSet rs, int row) throws SQLException {
        return new Payment(rs.getString("id"), Mode.fromWire(rs.getString("mode")),
                PaymentStatus.fromWire(rs.getString("status")), rs.getLong("amount"), rs.getString("currency"),
                rs.getLong("paid_amount"), rs.getString("obligation_id"),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant());
    }
}
