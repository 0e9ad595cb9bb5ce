package io.tender.database;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterUtils;
import org.springframework.jdbc.core.namedparam.ParsedSql;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One SQL statement with its arguments, to send with others in one round trip ({@link RoundTrips}); {@code rows}
 * reads what a query returns (null for a statement whose update count is all the caller needs).
 */
public record Statement(String sql, Object[] args, RowMapper<?> rows) {

    /** Named-parameter SQL as parsed, by its text: the callers' SQL is constant text, so this stays small. */
    private static final Map<String, ParsedSql> PARSED = new ConcurrentHashMap<>();

    /** A statement with positional ({@code ?}) parameters. */
    public static Statement update(String sql, Object... args) {
        return new Statement(sql, args, null);
    }

    /** A statement with named ({@code :name}) parameters, as {@code JdbcClient} takes them. */
    public static Statement update(String sql, Map<String, ?> params) {
        var parsed = PARSED.computeIfAbsent(sql, NamedParameterUtils::parseSqlStatement);
        var source = new MapSqlParameterSource(params);
        return new Statement(NamedParameterUtils.substituteNamedParameters(parsed, source),
                NamedParameterUtils.buildValueArray(parsed, source, null), null);
    }

    /** A query whose rows {@code rows} reads. */
    public static <T> Statement query(String sql, RowMapper<T> rows, Object... args) {
        return new Statement(sql, args, rows);
    }
}
