package io.tender.auth;

import io.tender.api.Ids;
import io.tender.api.Timestamps;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

@Repository
public class Merchants {

    /** A merchant; {@code apiVersion} is the API version its requests without a {@code Tender-Version} get. */
    public record Merchant(String id, String name, Instant createdAt, String apiVersion) {
    }

    /**
     * The merchant's pinned API version, the one it replaced at the last change ({@code previous}, null if none) and
     * when that change was made (null if never).
     */
    public record ApiVersionPin(String version, String previous, Instant changedAt) {
    }

    private static final String COLUMNS = "id, name, created_at, api_version";

    private final JdbcClient jdbc;

    Merchants(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Creates the merchant unless one of that name exists; true when this call created it. Its API version is the
     * column's default, the newest version (the migration that adds a version moves the default).
     */
    public boolean createIfAbsent(String name) {
        return jdbc.sql("insert into merchants (id, name, created_at) values (?, ?, ?) on conflict (name) do nothing")
                .params(Ids.newId("mer_"), name, Timestamps.now().atOffset(java.time.ZoneOffset.UTC))
                .update() == 1;
    }

    public Optional<Merchant> byName(String name) {
        return jdbc.sql("select " + COLUMNS + " from merchants where name = ?").param(name)
                .query(Merchant.class).optional();
    }

    public Optional<Merchant> byId(String id) {
        return jdbc.sql("select " + COLUMNS + " from merchants where id = ?").param(id)
                .query(Merchant.class).optional();
    }

    public List<Merchant> all() {
        return jdbc.sql("select " + COLUMNS + " from merchants order by id").query(Merchant.class).list();
    }

    public Optional<ApiVersionPin> apiVersionPin(String merchantId) {
        return jdbc.sql("""
                        select api_version, api_version_previous, api_version_changed_at from merchants where id = ?""")
                .param(merchantId)
                .query((rs, i) -> new ApiVersionPin(rs.getString(1), rs.getString(2),
                        rs.getTimestamp(3) == null ? null : rs.getTimestamp(3).toInstant()))
                .optional();
    }

    /**
     * Pins the merchant to {@code version} if it is still pinned to {@code expected}, recording {@code previous} (the
     * version a rollback returns to, or null for none) and {@code at}; false when the pin moved meanwhile.
     */
    public boolean repinApiVersion(String merchantId, String expected, String version, String previous, Instant at) {
        return jdbc.sql("""
                        update merchants set api_version = ?, api_version_previous = ?, api_version_changed_at = ?
                        where id = ? and api_version = ?""")
                .params(version, previous, at.atOffset(java.time.ZoneOffset.UTC), merchantId, expected)
                .update() == 1;
    }

    public boolean none() {
        return jdbc.sql("select not exists (select 1 from merchants)").query(Boolean.class).single();
    }
}
