package io.tender.payment;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Payments' read facade for the dashboard's Home (decisions §11): per UTC day and currency, how many payments
 * succeeded and for how much (captured), how many failed, and how many manual authorizations wait for a capture.
 * Verifications of a payment method are not payments here.
 */
@Component
public class PaymentTotals {

    /** One day and currency; amounts in minor units. */
    public record Day(LocalDate day, String currency, long succeeded, long succeededAmount, long failed,
                      long uncaptured, long uncapturedAmount) {
    }

    private static final String UNCAPTURED = "status = 'succeeded' and capture_method = 'manual' "
            + "and authorized_amount > paid_amount + voided_amount";

    private final JdbcClient jdbc;

    PaymentTotals(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The merchant's payments in the mode made at or after {@code since}, by day (oldest first) and currency. */
    public List<Day> daily(String merchantId, String mode, Instant since) {
        return jdbc.sql("select (created_at at time zone 'UTC')::date as day, currency, "
                        + "count(*) filter (where status = 'succeeded' and not (" + UNCAPTURED + ")) as succeeded, "
                        + "coalesce(sum(paid_amount) filter (where status = 'succeeded' and not (" + UNCAPTURED
                        + ")), 0) as succeeded_amount, "
                        + "count(*) filter (where status = 'failed') as failed, "
                        + "count(*) filter (where " + UNCAPTURED + ") as uncaptured, "
                        + "coalesce(sum(authorized_amount - paid_amount - voided_amount) filter (where " + UNCAPTURED
                        + "), 0) as uncaptured_amount "
                        + "from payments where merchant_id = ? and mode = ? and created_at >= ? "
                        + "and intent = 'payment' group by 1, 2 order by 1, 2")
                .params(merchantId, mode, since.atOffset(ZoneOffset.UTC))
                .query((rs, row) -> new Day(rs.getObject("day", LocalDate.class), rs.getString("currency"),
                        rs.getLong("succeeded"), rs.getLong("succeeded_amount"), rs.getLong("failed"),
                        rs.getLong("uncaptured"), rs.getLong("uncaptured_amount")))
                .list();
    }
}
