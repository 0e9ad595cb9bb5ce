package io.tender.paymentpage;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.util.Optional;

/** The {@code payment_page_visits} table: one row per visit that opened a session. */
@Repository
class PageVisits {

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final DetailColumns columns;

    PageVisits(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
        this.columns = new DetailColumns(json);
    }

    /**
     * Records a visit, unless one was posted from the same form already (its nonce): then nothing is written and
     * false answers. A concurrent post of the same form waits here for the first to commit.
     */
    boolean insertOnce(Visit v) {
        var params = columns.params(v.details());
        params.put("id", v.id());
        params.put("page", v.paymentPageId());
        params.put("nonce", v.formNonce());
        params.put("amount", v.amount());
        params.put("currency", v.currency());
        params.put("createdAt", v.createdAt().atOffset(ZoneOffset.UTC));
        return jdbc.sql("""
                        insert into payment_page_visits (id, payment_page_id, form_nonce, amount, currency, customer,
                            delivery_address, custom_fields, metadata, created_at)
                        values (:id, :page, :nonce, :amount, :currency, :customer::jsonb, :address::jsonb,
                            :fields::jsonb, :metadata::jsonb, :createdAt)
                        on conflict (payment_page_id, form_nonce) do nothing""")
                .params(params).update() == 1;
    }

    void opened(String visitId, String paymentSessionId) {
        jdbc.sql("update payment_page_visits set payment_session_id = ? where id = ?").params(paymentSessionId, visitId)
                .update();
    }

    Optional<Visit> byNonce(String paymentPageId, String formNonce) {
        return jdbc.sql("select * from payment_page_visits where payment_page_id = ? and form_nonce = ?")
                .params(paymentPageId, formNonce).query(this::map).optional();
    }

    Optional<Visit> bySession(String paymentSessionId) {
        return jdbc.sql("select * from payment_page_visits where payment_session_id = ?").param(paymentSessionId)
                .query(this::map).optional();
    }

    private Visit map(ResultSet rs, int row) throws SQLException {
        return new Visit(rs.getString("id"), rs.getString("payment_page_id"), rs.getString("payment_session_id"),
                rs.getString("form_nonce"), rs.getLong("amount"), rs.getString("currency"), columns.read(rs),
                rs.getTimestamp("created_at").toInstant());
    }
}
