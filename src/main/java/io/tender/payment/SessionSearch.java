package io.tender.payment;

import io.tender.auth.Caller;
import io.tender.auth.Mode;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The dashboard's Payment sessions page (decisions §11): one merchant's sessions in one mode, newest first, a page at
 * a time, optionally of one status; and one session as the API shows it. Ids are time-ordered ({@code Ids}), so the
 * keyset on {@code id} is the order of creation, served by {@code payment_sessions_by_merchant}. The customer email is
 * billing's, asked through {@link PaymentObligations}.
 */
@Service
public record SessionSearch(JdbcClient jdbc, PaymentSessions sessions, PaymentViews views, PaymentObligations customers) {

    /** The statuses a session can have, in wire form. */
    public static final List<String> STATUSES = Arrays.stream(PaymentSession.Status.values())
            .map(PaymentSession.Status::wire).toList();
    private static final Pattern ID = Pattern.compile("^ps_[a-f0-9]{24}$");

    /** One session as the list shows it; amounts in minor units. */
    public record Row(String id, String type, String status, String paymentOutcome, long amount, String currency,
                      String customerId, String customerEmail, Instant createdAt, Instant expiresAt) {
    }

    /** A page of rows and the cursor of the next (null: this is the last). */
    public record Page(List<Row> rows, String nextCursor) {
    }

    /**
     * Up to {@code limit} sessions older than {@code cursor} (a session id; null: from the newest), of
     * {@code status} (a wire status; null: any). A cursor that is not a session id starts from the newest.
     */
    public Page page(String merchantId, Mode mode, String status, String cursor, int limit) {
        StringBuilder sql = new StringBuilder("""
                select id, type, status, payment_outcome, amount, currency, customer_id, created_at, expires_at
                from payment_sessions where merchant_id = :merchant and mode = :mode""");
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("merchant", merchantId);
        params.put("mode", mode.wire());
        if (status != null && STATUSES.contains(status)) {
            sql.append(" and status = :status");
            params.put("status", status);
        }
        if (cursor != null && ID.matcher(cursor).matches()) {
            sql.append(" and id < :cursor");
            params.put("cursor", cursor);
        }
        sql.append(" order by id desc limit :limit");
        params.put("limit", limit + 1);
        List<Row> rows = jdbc.sql(sql.toString()).params(params).query((rs, i) -> new Row(rs.getString("id"),
                rs.getString("type"), rs.getString("status"), rs.getString("payment_outcome"), rs.getLong("amount"),
                rs.getString("currency"), rs.getString("customer_id"), null,
                instant(rs.getTimestamp("created_at")), instant(rs.getTimestamp("expires_at")))).list();
        boolean more = rows.size() > limit;
        List<Row> shown = withEmails(Caller.system(merchantId, mode), more ? rows.subList(0, limit) : rows);
        return new Page(shown, more ? shown.getLast().id() : null);
    }

    /** The session as the API's {@code GET /collect/payment_sessions/{id}} shows it, if it is the merchant's in the mode. */
    public Optional<PaymentSessionView> find(String merchantId, Mode mode, String id) {
        if (id == null || !ID.matcher(id).matches()) {
            return Optional.empty();
        }
        return sessions.find(Caller.system(merchantId, mode), id, false).map(views::view);
    }

    /** The customer's email as billing has it, or null. */
    public String customerEmail(String merchantId, Mode mode, String customerId) {
        return customerId == null ? null
                : customers.customerEmails(Caller.system(merchantId, mode), List.of(customerId)).get(customerId);
    }

    /** The customers' emails as billing has them, by customer id (a customer without one is missing). */
    public Map<String, String> customerEmails(String merchantId, Mode mode, List<String> customerIds) {
        List<String> ids = customerIds.stream().filter(Objects::nonNull).distinct().toList();
        return ids.isEmpty() ? Map.of() : customers.customerEmails(Caller.system(merchantId, mode), ids);
    }

    private List<Row> withEmails(Caller caller, List<Row> rows) {
        List<String> ids = rows.stream().map(Row::customerId).filter(Objects::nonNull).distinct().toList();
        if (ids.isEmpty()) {
            return List.copyOf(rows);
        }
        Map<String, String> emails = customers.customerEmails(caller, ids);
        return rows.stream().map(r -> r.customerId() == null ? r : new Row(r.id(), r.type(), r.status(),
                r.paymentOutcome(), r.amount(), r.currency(), r.customerId(), emails.get(r.customerId()),
                r.createdAt(), r.expiresAt())).toList();
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
