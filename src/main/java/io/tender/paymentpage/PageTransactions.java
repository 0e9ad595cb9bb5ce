package io.tender.paymentpage;

import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.auth.Mode;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.util.List;

/** The {@code payment_page_transactions} table: one row per payment through a page, written once. */
@Repository
class PageTransactions {

    /** What the transaction's payment's succeeded refunds gave back (decisions §10). */
    private static final String REFUNDED = "coalesce((select refunded_amount from payments p where p.id = t.payment_id), 0)"
            + " as refunded_amount";

    private final JdbcClient jdbc;
    private final DetailColumns columns;

    PageTransactions(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.columns = new DetailColumns(json);
    }

    /** Writes the transaction unless its payment has one already (an ended attempt told twice); true if written. */
    boolean insertOnce(PageTransaction t) {
        var params = columns.params(t.details());
        params.put("id", t.id());
        params.put("page", t.paymentPageId());
        params.put("merchant", t.merchantId());
        params.put("mode", t.mode().wire());
        params.put("status", t.status());
        params.put("amount", t.amount());
        params.put("currency", t.currency());
        params.put("payment", t.paymentId());
        params.put("session", t.paymentSessionId());
        params.put("checkout", t.checkoutSessionId());
        params.put("createdAt", t.createdAt().atOffset(ZoneOffset.UTC));
        params.put("updatedAt", t.updatedAt().atOffset(ZoneOffset.UTC));
        return jdbc.sql("""
                        insert into payment_page_transactions (id, payment_page_id, merchant_id, mode, status, amount,
                            currency, customer, delivery_address, custom_fields, payment_id, payment_session_id,
                            checkout_session_id, metadata, created_at, updated_at)
                        values (:id, :page, :merchant, :mode, :status, :amount, :currency, :customer::jsonb,
                            :address::jsonb, :fields::jsonb, :payment, :session, :checkout, :metadata::jsonb,
                            :createdAt, :updatedAt)
                        on conflict (payment_id) do nothing""")
                .params(params).update() == 1;
    }

    /**
     * A page of a page's transactions, newest first. {@code after}: older than this id (a {@code Next-Cursor});
     * {@code before}: newer than this id (a {@code Prev-Cursor}), the {@code limit} closest to it. Up to
     * {@code limit + 1} rows, the extra one saying there are more in the direction read.
     */
    List<PageTransaction> page(String paymentPageId, ListQuery query, String status, String after, String before) {
        return ListSql.from("select *, " + REFUNDED + " from payment_page_transactions t")
                .where("payment_page_id", paymentPageId)
                .where("status", status).page(jdbc, query, after, before, this::map);
    }

    private PageTransaction map(ResultSet rs, int row) throws SQLException {
        return new PageTransaction(rs.getString("id"), rs.getString("payment_page_id"), rs.getString("merchant_id"),
                Mode.fromWire(rs.getString("mode")), rs.getString("status"), rs.getLong("amount"),
                rs.getString("currency"), columns.read(rs), rs.getString("payment_id"),
                rs.getString("payment_session_id"), rs.getString("checkout_session_id"),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant(),
                rs.getLong("refunded_amount"));
    }
}
