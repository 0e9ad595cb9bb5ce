package io.tender.api;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The query behind every list endpoint: rows matching some columns, after the cursor, within the
 * {@code created_at} range, newest first, {@code limit + 1} of them (the extra one says there is more; see
 * {@link ListPage#of}). Column names come from code, never from the request; values are bound.
 */
public final class ListSql {

    private final String select;
    private final Map<String, Object> equalTo = new LinkedHashMap<>();

    private ListSql(String select) {
        this.select = select;
    }

    /** {@code select} is the statement up to its {@code where}, for example {@code "select * from redemptions"}. */
    public static ListSql from(String select) {
        return new ListSql(select);
    }

    /** The caller's own rows: its merchant and its mode. */
    public ListSql ownedBy(Tenant tenant) {
        return where("merchant_id", tenant.merchantId()).where("mode", tenant.modeWire());
    }

    /** Rows whose column equals the value; a null value (a filter the client did not give) adds nothing. */
    public ListSql where(String column, Object value) {
        if (value != null) {
            equalTo.put(column, value);
        }
        return this;
    }

    public <T> List<T> page(JdbcClient jdbc, ListQuery query, RowMapper<T> mapper) {
        return page(jdbc, query, query.cursor(), null, mapper);
    }

    /**
     * As {@link #page(JdbcClient, ListQuery, RowMapper)}, for a list that pages both ways and reads its cursors
     * itself: the rows older than {@code after}, newest first; or, with {@code before}, the ones just newer than it,
     * oldest first.
     */
    public <T> List<T> page(JdbcClient jdbc, ListQuery query, String after, String before, RowMapper<T> mapper) {
        StringBuilder sql = new StringBuilder(select).append(" where true");
        Map<String, Object> params = new LinkedHashMap<>();
        filters(sql, params);
        if (after != null) {
            sql.append(" and id < :cursor");
            params.put("cursor", after);
        }
        if (before != null) {
            sql.append(" and id > :before");
            params.put("before", before);
        }
        return list(jdbc, query, sql, params, before != null ? " order by id asc" : " order by id desc", mapper);
    }

    /**
     * For rows whose ids do not sort by time (public ids, {@link Ids#newPublicId}): newest first by {@code created_at},
     * then by id between rows of the same instant, after the position {@code after} (the row the cursor names).
     */
    public <T> List<T> pageByCreation(JdbcClient jdbc, ListQuery query, Keyset after, RowMapper<T> mapper) {
        StringBuilder sql = new StringBuilder(select).append(" where true");
        Map<String, Object> params = new LinkedHashMap<>();
        filters(sql, params);
        if (after != null) {
            sql.append(" and (created_at, id) < (:afterCreatedAt, :afterId)");
            params.put("afterCreatedAt", after.createdAt().atOffset(ZoneOffset.UTC));
            params.put("afterId", after.id());
        }
        return list(jdbc, query, sql, params, " order by created_at desc, id desc", mapper);
    }

    private void filters(StringBuilder sql, Map<String, Object> params) {
        equalTo.forEach((column, value) -> {
            sql.append(" and ").append(column).append(" = :").append(column);
            params.put(column, value);
        });
    }

    private static <T> List<T> list(JdbcClient jdbc, ListQuery query, StringBuilder sql, Map<String, Object> params,
                                    String order, RowMapper<T> mapper) {
        if (query.createdFrom() != null) {
            sql.append(" and created_at >= :createdFrom");
            params.put("createdFrom", query.createdFrom().atOffset(ZoneOffset.UTC));
        }
        if (query.createdBefore() != null) {
            sql.append(" and created_at < :createdBefore");
            params.put("createdBefore", query.createdBefore().atOffset(ZoneOffset.UTC));
        }
        sql.append(order).append(" limit :limit");
        params.put("limit", query.limit() + 1);
        return jdbc.sql(sql.toString()).params(params).query(mapper).list();
    }
}
