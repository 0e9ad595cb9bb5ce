package io.tender.dashboard;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Reading a merchant's audit log, newest first, a page at a time (keyset on the row's id, which only grows: a new
 * entry never shifts a page already shown), by the index {@code (merchant_id, id desc)}. {@link AuditLog} writes it.
 */
@Repository
class AuditLogSearch {

    /**
     * What to look for; each part may be null. {@code who} is a user's id ({@code usr_…}) or part of the email of
     * who acted; the dates are UTC days, both included.
     */
    record Filter(String action, String who, LocalDate from, LocalDate to) {
    }

    /** One entry, with the target's email when the target is one of the merchant's users. */
    record Row(long id, Instant at, String userId, String actor, String action, String target, String targetEmail,
               String mode, String clientAddress, String userAgent, String before, String after) {
    }

    record Page(List<Row> rows, Long next) {
    }

    private final JdbcClient jdbc;

    AuditLogSearch(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Up to {@code size} entries older than the entry {@code before} (null: the newest). */
    Page page(String merchantId, Filter filter, Long before, int size) {
        StringBuilder sql = new StringBuilder("""
                select a.id, a.occurred_at, a.user_id, a.actor, a.action, a.target, t.email as target_email, a.mode,
                       a.client_address, a.user_agent, a.before_state::text as before_state,
                       a.after_state::text as after_state
                from dashboard_audit_log a
                left join dashboard_users t on t.id = a.target and t.merchant_id = a.merchant_id
                where a.merchant_id = ?""");
        List<Object> params = new ArrayList<>(List.of(merchantId));
        if (filter.action() != null) {
            sql.append(" and a.action = ?");
            params.add(filter.action());
        }
        if (filter.who() != null) {
            if (filter.who().startsWith("usr_")) {
                sql.append(" and a.user_id = ?");
                params.add(filter.who());
            } else {
                sql.append(" and strpos(lower(a.actor), lower(?)) > 0");
                params.add(filter.who());
            }
        }
        if (filter.from() != null) {
            sql.append(" and a.occurred_at >= ?");
            params.add(filter.from().atStartOfDay().atOffset(ZoneOffset.UTC));
        }
        if (filter.to() != null) {
            sql.append(" and a.occurred_at < ?");
            params.add(filter.to().plusDays(1).atStartOfDay().atOffset(ZoneOffset.UTC));
        }
        if (before != null) {
            sql.append(" and a.id < ?");
            params.add(before);
        }
        sql.append(" order by a.id desc limit ?");
        params.add(size + 1);
        List<Row> rows = jdbc.sql(sql.toString()).params(params).query((rs, n) -> new Row(rs.getLong("id"),
                rs.getTimestamp("occurred_at").toInstant(), rs.getString("user_id"), rs.getString("actor"),
                rs.getString("action"), rs.getString("target"), rs.getString("target_email"), rs.getString("mode"),
                rs.getString("client_address"), rs.getString("user_agent"), rs.getString("before_state"),
                rs.getString("after_state"))).list();
        if (rows.size() > size) {
            return new Page(rows.subList(0, size), rows.get(size - 1).id());
        }
        return new Page(rows, null);
    }
}
