package io.tender.payment;

import io.tender.auth.Caller;
import io.tender.auth.Mode;
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

/** The {@code payment_sessions} table. A session row is locked ({@code FOR UPDATE}) by whoever changes it. */
@Repository
record PaymentSessions(JdbcClient jdbc, JsonMapper json) {

    private static final TypeReference<Map<String, String>> STRINGS = new TypeReference<>() {
    };

    void insert(PaymentSession s) {
        Map<String, Object> p = changing(s);
        p.put("merchant", s.merchantId());
        p.put("mode", s.mode().wire());
        p.put("checkout", s.checkoutSessionId());
        p.put("type", s.type());
        p.put("amount", s.amount());
        p.put("currency", s.currency());
        p.put("country", s.country());
        p.put("customer", s.customerId());
        p.put("obligation", s.obligationId());
        p.put("returnUrl", s.returnUrl());
        p.put("externalReference", s.externalReference());
        p.put("metadata", s.metadata() == null ? null : json.writeValueAsString(s.metadata()));
        p.put("createdAt", s.createdAt().atOffset(ZoneOffset.UTC));
        p.put("originKind", s.origin() == null ? null : s.origin().kind());
        p.put("originId", s.origin() == null ? null : s.origin().id());
        jdbc.sql("""
                        insert into payment_sessions (id, merchant_id, mode, checkout_session_id, type, amount, currency,
                            country, status, payment_outcome, customer_id, payment_id, obligation_id, return_url,
                            last_payment_error, external_reference, metadata, options, attempts, waiting_for_merchant,
                            version, expires_at, created_at, updated_at, origin_kind, origin_id, payment_method_id,
                            mandate_acceptance, mandate_id, subscription_id)
                        values (:id, :merchant, :mode, :checkout, :type, :amount, :currency, :country, :status,
                            :outcome, :customer, :payment, :obligation, :returnUrl, :lastError::jsonb,
                            :externalReference, :metadata::jsonb, :options::jsonb, :attempts, :waiting, :version,
                            :expiresAt, :createdAt, :updatedAt, :originKind, :originId, :paymentMethod,
                            :acceptance::jsonb, :mandate, :subscription)""")
                .params(p).update();
    }

    void update(PaymentSession s) {
        jdbc.sql("""
                        update payment_sessions set status = :status, payment_outcome = :outcome, payment_id = :payment,
                            payment_method_id = :paymentMethod, mandate_acceptance = :acceptance::jsonb,
                            mandate_id = :mandate, subscription_id = :subscription,
                            last_payment_error = :lastError::jsonb, options = :options::jsonb, attempts = :attempts,
                            waiting_for_merchant = :waiting, version = :version, expires_at = :expiresAt,
                            updated_at = :updatedAt
                        where id = :id""")
                .params(changing(s)).update();
    }

    Optional<PaymentSession> find(Caller caller, String id, boolean lock) {
        return jdbc.sql("select * from payment_sessions where id = ? and merchant_id = ? and mode = ?"
                        + (lock ? " for update" : ""))
                .params(id, caller.merchantId(), caller.mode().wire()).query(this::map).optional();
    }

    /** The session, or 404 {@code payment_not_found} (spec: unknown ps_ ids). */
    PaymentSession get(Caller caller, String id, boolean lock) {
        return find(caller, id, lock).orElseThrow(() -> new PaymentRejection.SessionNotFound().thrown());
    }

    /** By its checkout id ({@code ckt_}), for the hosted checkout, which has no API key. */
    Optional<PaymentSession> findByCheckout(String checkoutSessionId, boolean lock) {
        return jdbc.sql("select * from payment_sessions where checkout_session_id = ?" + (lock ? " for update" : ""))
                .param(checkoutSessionId).query(this::map).optional();
    }

    Optional<PaymentSession> findById(String id, boolean lock) {
        return jdbc.sql("select * from payment_sessions where id = ?" + (lock ? " for update" : ""))
                .param(id).query(this::map).optional();
    }

    /** Active sessions past their expiry, locked, skipping those another instance holds. */
    List<PaymentSession> lockExpired(Instant now, int limit) {
        return jdbc.sql("""
                        select * from payment_sessions where status = 'active' and expires_at <= ?
                        order by expires_at limit ? for update skip locked""")
                .params(now.atOffset(ZoneOffset.UTC), limit).query(this::map).list();
    }

    private Map<String, Object> changing(PaymentSession s) {
        Map<String, Object> p = new HashMap<>();
        p.put("id", s.id());
        p.put("status", s.status().wire());
        p.put("outcome", s.paymentOutcome());
        p.put("payment", s.paymentId());
        p.put("paymentMethod", s.paymentMethodId());
        p.put("lastError", s.lastPaymentError() == null ? null : json.writeValueAsString(s.lastPaymentError()));
        p.put("options", json.writeValueAsString(s.options()));
        p.put("attempts", s.attempts());
        p.put("waiting", s.waitingForMerchant());
        p.put("version", s.version());
        p.put("expiresAt", s.expiresAt().atOffset(ZoneOffset.UTC));
        p.put("updatedAt", s.updatedAt().atOffset(ZoneOffset.UTC));
        p.put("acceptance", s.mandateAcceptance() == null ? null : json.writeValueAsString(s.mandateAcceptance()));
        p.put("mandate", s.mandateId());
        p.put("subscription", s.subscriptionId());
        return p;
    }

    private PaymentSession map(ResultSet rs, int row) throws SQLException {
        String lastError = rs.getString("last_payment_error");
        String metadata = rs.getString("metadata");
        var terms = new PaymentSession.Terms(rs.getString("id"), rs.getString("merchant_id"),
                Mode.fromWire(rs.getString("mode")), rs.getString("checkout_session_id"), rs.getString("type"),
                rs.getLong("amount"), rs.getString("currency"), rs.getString("country"), rs.getString("customer_id"),
                rs.getString("obligation_id"), rs.getString("return_url"), rs.getString("external_reference"),
                metadata == null ? null : json.readValue(metadata, STRINGS), rs.getTimestamp("created_at").toInstant());
        var state = new PaymentSession.State(json.readValue(rs.getString("options"), SessionOptions.class),
                PaymentSession.Status.valueOf(rs.getString("status").toUpperCase()), rs.getString("payment_outcome"),
                rs.getString("payment_id"), lastError == null ? null : json.readValue(lastError, PaymentError.class),
                rs.getInt("attempts"), rs.getBoolean("waiting_for_merchant"), rs.getInt("version"),
                rs.getTimestamp("expires_at").toInstant(), rs.getTimestamp("updated_at").toInstant());
        return PaymentSession.restored(terms, state).withPaymentMethod(rs.getString("payment_method_id"))
                .withOrigin(rs.getString("origin_kind") == null ? null
                        : new SessionOrigin.Ref(rs.getString("origin_kind"), rs.getString("origin_id")))
                .ofMandate(rs.getString("mandate_id"), rs.getString("subscription_id"))
                .restoreAcceptance(rs.getString("mandate_acceptance") == null ? null
                        : json.readValue(rs.getString("mandate_acceptance"), Acceptance.class));
    }
}
