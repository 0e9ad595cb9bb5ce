package io.tender.settlement;

import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lease-and-revision rules of one aggregate table (which has {@code id}, {@code revision integer} and
 * {@code lease_until timestamptz} columns). Every write is conditional on the revision read, so a request and the
 * recovery job can never both move one row; a lease keeps the recovery job off a row while a request calls the other
 * side; claiming takes unfinished rows with {@code FOR UPDATE SKIP LOCKED}, so several instances never take the same.
 */
public final class LeasedRows {

    private static final java.util.regex.Pattern TABLE = java.util.regex.Pattern.compile("^[a-z][a-z0-9_]*$");

    private final JdbcClient jdbc;
    private final String table;

    /** {@code table}: the aggregate's table, named by its repository (a constant, never input). */
    public LeasedRows(JdbcClient jdbc, String table) {
        if (!TABLE.matcher(table).matches()) {
            throw new IllegalArgumentException("not a table name: " + table);
        }
        this.jdbc = jdbc;
        this.table = table;
    }

    /** The lease column's value for a write that keeps the row for {@code lease}, or releases it (null). */
    public static OffsetDateTime leaseUntil(Duration lease) {
        return lease == null ? null : Instant.now().plus(lease).atOffset(ZoneOffset.UTC);
    }

    /**
     * The parameters every write of a row names, to which its repository adds the aggregate's own columns: the row's
     * {@code id}, the {@code revision} it was read at, its {@code lease} (as {@link #leaseUntil} has it) and
     * {@code updatedAt}.
     */
    public static Map<String, Object> writeParams(String id, int revision, Duration lease, Instant updatedAt) {
        Map<String, Object> params = new HashMap<>();
        params.put("id", id);
        params.put("revision", revision);
        params.put("lease", leaseUntil(lease));
        params.put("updatedAt", updatedAt.atOffset(ZoneOffset.UTC));
        return params;
    }

    /**
     * Runs {@code update}, an {@code update <table> set …, revision = revision + 1 … where id = :id and revision =
     * :revision}; throws {@link StaleWrite} unless it changed exactly one row.
     */
    public void updateOrThrow(String id, Map<String, Object> params, String update) {
        requireWritten(id, jdbc.sql(update).params(params).update());
    }

    /**
     * Throws {@link StaleWrite} unless such an update, sent by the caller (with other statements in one round trip),
     * changed exactly one row; the caller's transaction then rolls back.
     */
    public void requireWritten(String id, int updated) {
        if (updated != 1) {
            throw new StaleWrite(table, id);
        }
    }

    /** Lets the recovery job take the row as soon as it is old enough (its request gave up on it). */
    public void release(String id, int revision) {
        jdbc.sql("update " + table + " set lease_until = null where id = ? and revision = ?")
                .params(id, revision).update();
    }

    /**
     * Takes up to {@code limit} rows matching {@code unfinished} (SQL over the table's columns, with named
     * parameters from {@code params}) that no one holds, oldest {@code updated_at} first, and leases them.
     */
    public <A> List<A> claim(String unfinished, Map<String, Object> params, Duration lease, int limit,
                             org.springframework.jdbc.core.RowMapper<A> mapper) {
        return jdbc.sql("with taken as (select id from " + table + " where (lease_until is null or lease_until < now())"
                        + " and (" + unfinished + ") order by updated_at limit :limit for update skip locked)"
                        + " update " + table + " r set lease_until = :leaseUntil, revision = r.revision + 1"
                        + " from taken where r.id = taken.id returning r.*")
                .params(params)
                .param("leaseUntil", leaseUntil(lease))
                .param("limit", limit)
                .query(mapper).list();
    }
}
