package io.tender.billing;

import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.auth.Caller;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** The {@code billing_accounts} table. Reads that precede a write lock the row
 * ({@code for no key update}: its writers queue up, inserts that only reference it do not). */
@Repository
class Accounts {

    private final JdbcClient jdbc;
    private final BillingTable<Account> rows;

    Accounts(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.rows = new BillingTable<>(jdbc, json, "billing_accounts", BillingResource.ACCOUNT, this::map);
    }

    /** Inserts the account; false when its external_reference is taken (also by a concurrent insert). */
    boolean insert(Caller caller, Account a) {
        return jdbc.sql("""
                        insert into billing_accounts (id, merchant_id, mode, external_reference, obligation_id,
                            customer_id, name, currency, balance, min_amount, max_amount, overpayment_allowed,
                            underpayment_allowed, metadata, created_at, updated_at)
                        values (:id, :merchant, :mode, :externalReference, :obligationId, :customerId, :name,
                            :currency, :balance, :minAmount, :maxAmount, :overpaymentAllowed, :underpaymentAllowed,
                            :metadata::jsonb, :createdAt, :updatedAt)
                        on conflict (merchant_id, mode, external_reference) do nothing""")
                .params(params(caller, a)).update() == 1;
    }

    void update(Caller caller, Account a) {
        jdbc.sql("""
                        update billing_accounts set name = :name, currency = :currency, balance = :balance,
                            min_amount = :minAmount, max_amount = :maxAmount, overpayment_allowed = :overpaymentAllowed,
                            underpayment_allowed = :underpaymentAllowed, metadata = :metadata::jsonb,
                            updated_at = :updatedAt
                        where id = :id and merchant_id = :merchant and mode = :mode""")
                .params(params(caller, a)).update();
    }

    /** By id or external_reference; {@code lock} holds the row until the transaction ends. */
    Optional<Account> find(Caller caller, String reference, boolean lock) {
        return rows.find(caller, reference, lock);
    }

    /** The row after {@code change}, written under its lock when it changed; 404 without the row. */
    Account change(Caller caller, String reference, UnaryOperator<Account> change) {
        return rows.change(caller, reference, change, this::update);
    }

    Optional<Account> lockByObligation(Caller caller, String obligationId) {
        return rows.lockByObligation(caller, obligationId);
    }

    List<Account> list(Caller caller, ListQuery query, String customerId, String externalReference) {
        return ListSql.from("select * from billing_accounts").ownedBy(caller).where("customer_id", customerId)
                .where("external_reference", externalReference).page(jdbc, query, this::map);
    }

    /** The caller's accounts of one customer, newest first, at most {@code limit} (the dashboard's customer page). */
    List<Account> ofCustomer(Caller caller, String customerId, int limit) {
        return jdbc.sql("""
                        select * from billing_accounts where customer_id = ? and merchant_id = ? and mode = ?
                        order by created_at desc, id desc limit ?""")
                .params(customerId, caller.merchantId(), caller.modeWire(), limit).query(this::map).list();
    }

    private Map<String, Object> params(Caller caller, Account a) {
        Map<String, Object> p = rows.params(caller, a.id(), a.externalReference(), a.obligationId(),
                a.paymentRules(), a.metadata(), a.createdAt(), a.updatedAt());
        p.put("customerId", a.customerId());
        p.put("name", a.name());
        p.put("currency", a.currency());
        p.put("balance", a.ledger().balance());
        return p;
    }

    private Account map(ResultSet rs, int row) throws SQLException {
        return new Account(rs.getString("id"), rs.getString("external_reference"), rs.getString("customer_id"),
                rs.getString("name"),
                new RunningBalance(rs.getString("obligation_id"), rs.getString("currency"),
                        rs.getObject("balance", Long.class), PaymentRulesColumns.fromRow(rs)),
                rows.metadata(rs),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant());
    }
}
