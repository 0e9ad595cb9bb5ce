package io.tender.paymentrequest;

import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.payment.PaymentError;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code payment_requests} table. Whoever changes a request holds its row ({@code FOR UPDATE}): the API's PATCH
 * and DELETE, and the session's moves, which reach the request inside the transaction that records them.
 */
@Repository
record PaymentRequests(JdbcClient jdbc, JsonMapper json) {

    /** What the request's payment's succeeded refunds gave back (decisions §10). */
    private static final String REFUNDED = "coalesce((select refunded_amount from payments p where p.id = r.payment_id), 0)"
            + " as refunded_amount";

    private static final TypeReference<Map<String, String>> STRINGS = new TypeReference<>() {
    };
    private static final TypeReference<List<String>> LIST = new TypeReference<>() {
    };

    void insert(PaymentRequest r) {
        Map<String, Object> p = changing(r);
        p.put("merchant", r.merchantId());
        p.put("mode", r.mode().wire());
        p.put("type", r.type().wire());
        p.put("amount", r.amount());
        p.put("currency", r.currency());
        p.put("session", r.paymentSessionId());
        p.put("checkout", r.checkoutSessionId());
        var c = r.customer();
        p.put("customerId", c == null ? null : c.id());
        p.put("customerName", c == null ? null : c.name());
        p.put("customerEmail", c == null ? null : c.email());
        p.put("customerPhone", c == null ? null : c.phone());
        var t = r.target();
        p.put("bill", t == null ? null : t.bill());
        p.put("account", t == null ? null : t.account());
        p.put("obligation", t == null ? null : t.obligationId());
        p.put("visible", r.visiblePaymentMethods() == null ? null : json.writeValueAsString(r.visiblePaymentMethods()));
        p.put("pushPhone", r.pushPhoneNumber());
        p.put("notifyEmail", r.notifyChannels().email());
        p.put("notifySms", r.notifyChannels().sms());
        p.put("createdAt", r.createdAt().atOffset(ZoneOffset.UTC));
        jdbc.sql("""
                        insert into payment_requests (id, merchant_id, mode, type, status, amount, currency, description,
                            external_reference, expires_at, payment_session_id, checkout_session_id, payment_id,
                            last_payment_error, customer_id, customer_name, customer_email, customer_phone, bill,
                            account, obligation_id, visible_payment_methods, push_phone_number, notify_email,
                            notify_sms, metadata, version, created_at, updated_at)
                        values (:id, :merchant, :mode, :type, :status, :amount, :currency, :description,
                            :externalReference, :expiresAt, :session, :checkout, :payment, :lastError::jsonb,
                            :customerId, :customerName, :customerEmail, :customerPhone, :bill, :account, :obligation,
                            :visible::jsonb, :pushPhone, :notifyEmail, :notifySms, :metadata::jsonb, :version,
                            :createdAt, :updatedAt)""")
                .params(p).update();
    }

    void update(PaymentRequest r) {
        jdbc.sql("""
                        update payment_requests set status = :status, description = :description,
                            external_reference = :externalReference, expires_at = :expiresAt, payment_id = :payment,
                            last_payment_error = :lastError::jsonb, metadata = :metadata::jsonb, version = :version,
                            updated_at = :updatedAt
                        where id = :id""")
                .params(changing(r)).update();
    }

    /** The caller's own request (its merchant and mode); {@code lock} holds the row until the transaction ends. */
    Optional<PaymentRequest> find(Caller caller, String id, boolean lock) {
        return jdbc.sql("select *, " + REFUNDED + " from payment_requests r where id = ? and merchant_id = ? and mode = ?"
                        + (lock ? " for update" : ""))
                .params(id, caller.merchantId(), caller.mode().wire()).query(this::map).optional();
    }

    /** By id alone: for the session's moves (which act for the request's own merchant) and the checkout. */
    Optional<PaymentRequest> findById(String id, boolean lock) {
        return jdbc.sql("select *, " + REFUNDED + " from payment_requests r where id = ?" + (lock ? " for update of r" : ""))
                .param(id).query(this::map).optional();
    }

    List<PaymentRequest> list(Caller caller, ListQuery query, String status, String type, String externalReference,
                              String customer) {
        return ofStatus(caller, status).where("type", type).where("external_reference", externalReference)
                .where("customer_id", customer).page(jdbc, query, this::map);
    }

    /** A page of the caller's requests of {@code status} (null: any), whatever their type. */
    List<PaymentRequest> list(Caller caller, ListQuery query, String status) {
        return ofStatus(caller, status).page(jdbc, query, this::map);
    }

    private static ListSql ofStatus(Caller caller, String status) {
        return ListSql.from("select *, " + REFUNDED + " from payment_requests r").ownedBy(caller).where("status", status);
    }

    /**
     * Takes the push to send, once: true for the one caller that set {@code push_started_at} on an active request
     * (the creating request after its commit, or the poller for a request whose creator died first).
     */
    boolean claimPush(String id) {
        return jdbc.sql("""
                        update payment_requests set push_started_at = now()
                        where id = ? and type = 'push' and status = 'active' and push_started_at is null""")
                .param(id).update() == 1;
    }

    /**
     * Active push requests due for a look, each taken by one instance ({@code SKIP LOCKED}) and put off until
     * {@code next}: those whose push was sent (to ask after the approval), and those whose push was never sent and
     * whose creator has had {@code unsentBefore} to send it.
     */
    List<PaymentRequest> claimDuePushes(Instant now, Instant next, Instant unsentBefore, int limit) {
        return jdbc.sql("""
                        with due as (select id from payment_requests
                            where status = 'active' and type = 'push' and (poll_after is null or poll_after <= :now)
                                and (push_started_at is not null or created_at < :unsentBefore)
                            order by poll_after nulls first limit :limit for update skip locked)
                        update payment_requests r set poll_after = :next from due where r.id = due.id
                        returning r.*, """ + REFUNDED)
                .param("now", now.atOffset(ZoneOffset.UTC))
                .param("next", next.atOffset(ZoneOffset.UTC))
                .param("unsentBefore", unsentBefore.atOffset(ZoneOffset.UTC))
                .param("limit", limit)
                .query(this::map).list();
    }

    /** Whether the request's push was taken by someone ({@link #claimPush}). */
    boolean pushStarted(String id) {
        return jdbc.sql("select push_started_at is not null from payment_requests where id = ?").param(id)
                .query(Boolean.class).single();
    }

    private Map<String, Object> changing(PaymentRequest r) {
        Map<String, Object> p = new HashMap<>();
        p.put("id", r.id());
        p.put("status", r.status().wire());
        p.put("description", r.description());
        p.put("externalReference", r.externalReference());
        p.put("expiresAt", r.expiresAt().atOffset(ZoneOffset.UTC));
        p.put("payment", r.paymentId());
        p.put("lastError", r.lastPaymentError() == null ? null : json.writeValueAsString(r.lastPaymentError()));
        p.put("metadata", r.metadata() == null ? null : json.writeValueAsString(r.metadata()));
        p.put("version", r.version());
        p.put("updatedAt", r.updatedAt().atOffset(ZoneOffset.UTC));
        return p;
    }

    private PaymentRequest map(ResultSet rs, int row) throws SQLException {
        String lastError = rs.getString("last_payment_error");
        String metadata = rs.getString("metadata");
        String visible = rs.getString("visible_payment_methods");
        String customerId = rs.getString("customer_id");
        String name = rs.getString("customer_name");
        String email = rs.getString("customer_email");
        String phone = rs.getString("customer_phone");
        String bill = rs.getString("bill");
        String account = rs.getString("account");
        return new PaymentRequest(rs.getString("id"), rs.getString("merchant_id"), Mode.fromWire(rs.getString("mode")),
                PaymentRequest.Type.valueOf(rs.getString("type").toUpperCase()),
                PaymentRequest.Status.fromWire(rs.getString("status")), rs.getLong("amount"), rs.getString("currency"),
                rs.getString("description"), rs.getString("external_reference"),
                rs.getTimestamp("expires_at").toInstant(), rs.getString("payment_session_id"),
                rs.getString("checkout_session_id"), rs.getString("payment_id"),
                lastError == null ? null : json.readValue(lastError, PaymentError.class),
                customerId == null && name == null && email == null && phone == null ? null
                        : new PaymentRequest.Customer(customerId, name, email, phone),
                bill == null && account == null ? null
                        : new PaymentRequest.Target(bill, account, rs.getString("obligation_id")),
                visible == null ? null : json.readValue(visible, LIST), rs.getString("push_phone_number"),
                new PaymentRequest.Notify(rs.getBoolean("notify_email"), rs.getBoolean("notify_sms")),
                metadata == null ? null : json.readValue(metadata, STRINGS), rs.getInt("version"),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant())
                .withRefunded(rs.getLong("refunded_amount"));
    }
}
