package io.tender.billing;

import io.tender.api.Keyset;
import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.auth.Caller;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** The {@code billing_bills} table. Reads that precede a write lock the row
 * ({@code for no key update}: its writers queue up, inserts that only reference it do not). */
@Repository
class Bills {

    private final JdbcClient jdbc;
    private final BillingTable<Bill> rows;

    Bills(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.rows = new BillingTable<>(jdbc, json, "billing_bills", BillingResource.BILL, this::map);
    }

    /** Inserts the bill; false when its external_reference is taken (also by a concurrent insert). */
    boolean insert(Caller caller, Bill b) {
        return jdbc.sql("""
                        insert into billing_bills (id, merchant_id, mode, external_reference, obligation_id, customer_id,
                            account_id, status, currency, amount_due, amount_paid, bill_date, due_date, min_amount,
                            max_amount, overpayment_allowed, underpayment_allowed, metadata, created_at, updated_at)
                        values (:id, :merchant, :mode, :externalReference, :obligationId, :customerId, :accountId,
                            :status, :currency, :amountDue, :amountPaid, :billDate, :dueDate, :minAmount, :maxAmount,
                            :overpaymentAllowed, :underpaymentAllowed, :metadata::jsonb, :createdAt, :updatedAt)
                        on conflict (merchant_id, mode, external_reference) do nothing""")
                .params(params(caller, b)).update() == 1;
    }

    void update(Caller caller, Bill b) {
        jdbc.sql("""
                        update billing_bills set status = :status, amount_paid = :amountPaid, min_amount = :minAmount,
                            max_amount = :maxAmount, overpayment_allowed = :overpaymentAllowed,
                            underpayment_allowed = :underpaymentAllowed, metadata = :metadata::jsonb,
                            updated_at = :updatedAt
                        where id = :id and merchant_id = :merchant and mode = :mode""")
                .params(params(caller, b)).update();
    }

    /** By id or external_reference; {@code lock} holds the row until the transaction ends. */
    Optional<Bill> find(Caller caller, String reference, boolean lock) {
        return rows.find(caller, reference, lock);
    }

    /** The row after {@code change}, written under its lock when it changed; 404 without the row. */
    Bill change(Caller caller, String reference, UnaryOperator<Bill> change) {
        return rows.change(caller, reference, change, this::update);
    }

    Optional<Bill> lockByObligation(Caller caller, String obligationId) {
        return rows.lockByObligation(caller, obligationId);
    }

    List<Bill> list(Caller caller, ListQuery query, String customerId, String accountId, String status,
                    String externalReference) {
        return ListSql.from("select * from billing_bills").ownedBy(caller).where("customer_id", customerId)
                .where("account_id", accountId).where("status", status).where("external_reference", externalReference)
                .page(jdbc, query, this::map);
    }

    /**
     * A page of the caller's bills for the dashboard, newest first ({@code created_at desc, id desc}) after
     * {@code after}, narrowed by {@code filter}; {@code limit} rows.
     */
    List<Bill> page(Caller caller, BillingSearch.BillFilter filter, Keyset after, int limit) {
        StringBuilder sql = new StringBuilder("select * from billing_bills where merchant_id = :merchant"
                + " and mode = :mode");
        Map<String, Object> p = new HashMap<>();
        p.put("merchant", caller.merchantId());
        p.put("mode", caller.modeWire());
        if (filter.status() != null) {
            sql.append(" and status = :status");
            p.put("status", filter.status());
        }
        if (filter.dueFrom() != null) {
            sql.append(" and due_date >= :dueFrom");
            p.put("dueFrom", filter.dueFrom());
        }
        if (filter.dueTo() != null) {
            sql.append(" and due_date <= :dueTo");
            p.put("dueTo", filter.dueTo());
        }
        String search = filter.search();
        if (search != null) {
            p.put("search", search);
            sql.append(BillingResource.BILL.namesId(search) ? " and id = :search"
                    : BillingResource.CUSTOMER.namesId(search) ? " and customer_id = :search"
                    : BillingResource.ACCOUNT.namesId(search) ? " and account_id = :search"
                    : " and external_reference = :search");
        }
        return BillingTable.keysetPage(jdbc, sql, p, after, limit, this::map);
    }

    private Map<String, Object> params(Caller caller, Bill b) {
        Map<String, Object> p = rows.params(caller, b.id(), b.externalReference(), b.obligationId(),
                b.paymentRules(), b.metadata(), b.createdAt(), b.updatedAt());
        p.put("customerId", b.customerId());
        p.put("accountId", b.accountId());
        p.put("status", b.status().wire());
        p.put("currency", b.currency());
        p.put("amountDue", b.amountDue());
        p.put("amountPaid", b.amountPaid());
        p.put("billDate", b.billDate());
        p.put("dueDate", b.dueDate());
        return p;
    }

    private Bill map(ResultSet rs, int row) throws SQLException {
        return new Bill(rs.getString("id"), rs.getString("external_reference"), rs.getString("obligation_id"),
                rs.getString("customer_id"), rs.getString("account_id"), BillStatus.fromWire(rs.getString("status")),
                rs.getString("currency"), rs.getLong("amount_due"), rs.getLong("amount_paid"),
                rs.getObject("bill_date", LocalDate.class), rs.getObject("due_date", LocalDate.class),
                PaymentRulesColumns.fromRow(rs), rows.metadata(rs),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant());
    }
}
