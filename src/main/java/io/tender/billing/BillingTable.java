package io.tender.billing;

import io.tender.auth.Caller;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * What the three billing tables ({@code billing_customers}, {@code billing_accounts}, {@code billing_bills}) read
 * and write alike: a row by id or external_reference, a row by its obligation, and the columns all three have
 * (owner, references, payment rules, metadata, timestamps). Each repository keeps its own columns, its insert and
 * update statements and its list filters. Reads that precede a write lock the row ({@code for no key update}: its
 * writers queue up, inserts that only reference it do not).
 */
final class BillingTable<T> {

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final String table;
    private final BillingResource resource;
    private final RowMapper<T> mapper;

    BillingTable(JdbcClient jdbc, JsonMapper json, String table, BillingResource resource, RowMapper<T> mapper) {
        this.jdbc = jdbc;
        this.json = json;
        this.table = table;
        this.resource = resource;
        this.mapper = mapper;
    }

    /** By id or external_reference; {@code lock} holds the row until the transaction ends. */
    Optional<T> find(Caller caller, String reference, boolean lock) {
        String sql = "select * from " + table + " where merchant_id = ? and mode = ? and "
                + resource.referenceColumn(reference) + " = ?" + (lock ? " for no key update" : "");
        return jdbc.sql(sql)
                .params(caller.merchantId(), caller.mode().wire(), reference)
                .query(mapper).optional();
    }

    /**
     * The row by id or external_reference after {@code change}, under the row's lock (404 without it); {@code write}
     * stores it when the change gives a new row.
     */
    T change(Caller caller, String reference, UnaryOperator<T> change, BiConsumer<Caller, T> write) {
        T current = find(caller, reference, true).orElseThrow(resource::notFound);
        T changed = change.apply(current);
        if (changed != current) {
            write.accept(caller, changed);
        }
        return changed;
    }

    Optional<T> lockByObligation(Caller caller, String obligationId) {
        return jdbc.sql("select * from " + table + " where merchant_id = ? and mode = ? and obligation_id = ?"
                        + " for no key update")
                .params(caller.merchantId(), caller.mode().wire(), obligationId)
                .query(mapper).optional();
    }

    /** The named parameters of the columns every billing table has; the caller adds its own. */
    Map<String, Object> params(Caller caller, String id, String externalReference, String obligationId,
                               PaymentRules rules, Map<String, String> metadata, Instant createdAt, Instant updatedAt) {
        Map<String, Object> p = new HashMap<>(PaymentRulesColumns.columns(rules));
        p.put("id", id);
        p.put("merchant", caller.merchantId());
        p.put("mode", caller.mode().wire());
        p.put("externalReference", externalReference);
        p.put("obligationId", obligationId);
        p.put("metadata", metadata == null ? null : json.writeValueAsString(metadata));
        p.put("createdAt", createdAt.atOffset(ZoneOffset.UTC));
        p.put("updatedAt", updatedAt.atOffset(ZoneOffset.UTC));
        return p;
    }

    /**
     * The dashboard's pages of a billing table: {@code sql} (a select with its where clause, merchant and mode in
     * it) after the keyset position, newest first ({@code created_at desc, id desc}), {@code limit} rows.
     */
    static <T> java.util.List<T> keysetPage(JdbcClient jdbc, StringBuilder sql, Map<String, Object> params,
                                            io.tender.api.Keyset after, int limit, RowMapper<T> mapper) {
        if (after != null) {
            sql.append(" and (created_at, id) < (:afterCreatedAt, :afterId)");
            params.put("afterCreatedAt", after.createdAt().atOffset(ZoneOffset.UTC));
            params.put("afterId", after.id());
        }
        sql.append(" order by created_at desc, id desc limit :limit");
        params.put("limit", limit);
        return jdbc.sql(sql.toString()).params(params).query(mapper).list();
    }

    /** The row's metadata column. */
    Map<String, String> metadata(ResultSet rs) throws SQLException {
        String metadata = rs.getString("metadata");
        return metadata == null ? null : json.readValue(metadata, Customers.STRINGS);
    }
}
