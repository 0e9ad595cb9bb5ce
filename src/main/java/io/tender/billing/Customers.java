package io.tender.billing;

import io.tender.api.Keyset;
import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.auth.Caller;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** The {@code billing_customers} table. Reads that precede a write lock the row
 * ({@code for no key update}: its writers queue up, inserts that only reference it do not). */
@Repository
class Customers {

    static final TypeReference<Map<String, String>> STRINGS = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final BillingTable<Customer> rows;

    Customers(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.rows = new BillingTable<>(jdbc, json, "billing_customers", BillingResource.CUSTOMER, this::map);
    }

    /** Inserts the customer; false when its external_reference is taken (also by a concurrent insert). */
    boolean insert(Caller caller, Customer c) {
        return jdbc.sql("""
                        insert into billing_customers (id, merchant_id, mode, external_reference, obligation_id, name,
                            email, phone, currency, balance, min_amount, max_amount, overpayment_allowed,
                            underpayment_allowed, metadata, created_at, updated_at)
                        values (:id, :merchant, :mode, :externalReference, :obligationId, :name, :email, :phone,
                            :currency, :balance, :minAmount, :maxAmount, :overpaymentAllowed, :underpaymentAllowed,
                            :metadata::jsonb, :createdAt, :updatedAt)
                        on conflict (merchant_id, mode, external_reference) do nothing""")
                .params(params(caller, c)).update() == 1;
    }

    void update(Caller caller, Customer c) {
        jdbc.sql("""
                        update billing_customers set name = :name, email = :email, phone = :phone,
                            currency = :currency, balance = :balance, min_amount = :minAmount, max_amount = :maxAmount,
                            overpayment_allowed = :overpaymentAllowed, underpayment_allowed = :underpaymentAllowed,
                            metadata = :metadata::jsonb, updated_at = :updatedAt
                        where id = :id and merchant_id = :merchant and mode = :mode""")
                .params(params(caller, c)).update();
    }

    /** By id or external_reference; {@code lock} holds the row until the transaction ends. */
    Optional<Customer> find(Caller caller, String reference, boolean lock) {
        return rows.find(caller, reference, lock);
    }

    /** The row after {@code change}, written under its lock when it changed; 404 without the row. */
    Customer change(Caller caller, String reference, UnaryOperator<Customer> change) {
        return rows.change(caller, reference, change, this::update);
    }

    Optional<Customer> lockByObligation(Caller caller, String obligationId) {
        return rows.lockByObligation(caller, obligationId);
    }

    /** Ids of the caller's customers with this email, whatever its case (billing_customers_by_email). */
    List<String> idsByEmail(Caller caller, String email) {
        return jdbc.sql("""
                        select id from billing_customers
                        where merchant_id = ? and mode = ? and lower(email) = lower(?)""")
                .params(caller.merchantId(), caller.modeWire(), email).query(String.class).list();
    }

    /** The emails of those of {@code ids} that are the caller's customers, by id. */
    Map<String, String> emails(Caller caller, Collection<String> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        Map<String, String> emails = new HashMap<>();
        jdbc.sql("select id, email from billing_customers where id = any(?::text[]) and merchant_id = ? and mode = ?")
                .params(ids.toArray(String[]::new), caller.merchantId(), caller.modeWire())
                .query(rs -> {
                    emails.put(rs.getString(1), rs.getString(2));
                });
        return emails;
    }

    /** The names of those of {@code ids} that are the caller's customers, by id. */
    Map<String, String> names(Caller caller, Collection<String> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        Map<String, String> names = new HashMap<>();
        jdbc.sql("select id, name from billing_customers where id = any(?::text[]) and merchant_id = ? and mode = ?")
                .params(ids.toArray(String[]::new), caller.merchantId(), caller.modeWire())
                .query(rs -> {
                    names.put(rs.getString(1), rs.getString(2));
                });
        return names;
    }

    List<Customer> list(Caller caller, ListQuery query, String externalReference) {
        return ListSql.from("select * from billing_customers").ownedBy(caller)
                .where("external_reference", externalReference).page(jdbc, query, this::map);
    }

    /**
     * A page of the caller's customers for the dashboard, newest first ({@code created_at desc, id desc}) after
     * {@code after}; {@code limit} rows. {@code search} (null: all) is a {@code bcus_} id, else an email compared
     * without regard to case, the start of a name (any case), or an external reference.
     */
    List<Customer> page(Caller caller, String search, Keyset after, int limit) {
        StringBuilder sql = new StringBuilder("select * from billing_customers where merchant_id = :merchant"
                + " and mode = :mode");
        Map<String, Object> p = new HashMap<>();
        p.put("merchant", caller.merchantId());
        p.put("mode", caller.modeWire());
        if (search != null) {
            p.put("search", search);
            if (BillingResource.CUSTOMER.namesId(search)) {
                sql.append(" and id = :search");
            } else if (search.contains("@")) {
                sql.append(" and (lower(email) = lower(:search) or external_reference = :search)");
            } else {
                sql.append(" and (lower(name) like :prefix escape '\\' or external_reference = :search)");
                p.put("prefix", search.toLowerCase(java.util.Locale.ROOT).replace("\\", "\\\\")
                        .replace("%", "\\%").replace("_", "\\_") + "%");
            }
        }
        return BillingTable.keysetPage(jdbc, sql, p, after, limit, this::map);
    }

    private Map<String, Object> params(Caller caller, Customer c) {
        Map<String, Object> p = rows.params(caller, c.id(), c.externalReference(), c.obligationId(),
                c.paymentRules(), c.metadata(), c.createdAt(), c.updatedAt());
        p.put("name", c.name());
        p.put("email", c.email());
        p.put("phone", c.phone());
        p.put("currency", c.currency());
        p.put("balance", c.ledger().balance());
        return p;
    }

    private Customer map(ResultSet rs, int row) throws SQLException {
        return new Customer(rs.getString("id"), rs.getString("external_reference"), rs.getString("name"),
                rs.getString("email"), rs.getString("phone"),
                new RunningBalance(rs.getString("obligation_id"), rs.getString("currency"),
                        rs.getObject("balance", Long.class), PaymentRulesColumns.fromRow(rs)),
                rows.metadata(rs),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant());
    }
}
