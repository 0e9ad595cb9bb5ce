package io.tender.billing;

import io.tender.api.ListQuery;
import io.tender.auth.Caller;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One page of a billing table for a list endpoint: the caller's rows, newest first, after the cursor, filtered. */
final class ListSql {

    private ListSql() {
    }

    /** Column-value pairs for {@link #page}; a null value means no filter on that column. */
    static Map<String, String> filters(String... columnsAndValues) {
        Map<String, String> filters = new LinkedHashMap<>();
        for (int i = 0; i < columnsAndValues.length; i += 2) {
            filters.put(columnsAndValues[i], columnsAndValues[i + 1]);
        }
        return filters;
    }

    /** {@code equalTo} maps column names (never request text) to the values they must equal; null values are ignored. */
    static <T> List<T> page(JdbcClient jdbc, String table, Caller caller, ListQuery query, Map<String, String> equalTo,
                            RowMapper<T> mapper) {
        StringBuilder sql = new StringBuilder("select * from " + table + " where merchant_id = :merchant and mode = :mode");
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("merchant", caller.merchantId());
        params.put("mode", caller.mode().wire());
        if (query.cursor() != null) {
            sql.append(" and id < :cursor");
            params.put("cursor", query.cursor());
        }
        if (query.createdFrom() != null) {
            sql.append(" and created_at >= :from");
            params.put("from", query.createdFrom().atOffset(ZoneOffset.UTC));
        }
        if (query.createdBefore() != null) {
            sql.append(" and created_at < :before");
            params.put("before", query.createdBefore().atOffset(ZoneOffset.UTC));
        }
        equalTo.forEach((column, value) -> {
            if (value != null) {
                sql.append(" and ").append(column).append(" = :").append(column);
                params.put(column, value);
            }
        });
        sql.append(" order by id desc limit :limit");
        params.put("limit", query.limit() + 1);
        return jdbc.sql(sql.toString()).params(params).query(mapper).list();
    }
}
