package io.tender.payment;

import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.api.Rejections;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.database.Transactions;
import io.tender.settlement.LeasedRows;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code payments} table, and the module's facade for other modules (billing reads payments and its test helper
 * records succeeded ones). Writes of a payment's state are conditional on the revision read (settlement kernel).
 */
@Repository
public class Payments {

    public static final String PREFIX = "pay_";
    /** The most minor units a payment (and so a capture or a refund of it) takes. */
    public static final long MAX_AMOUNT = 99_999_999L;

    private static final TypeReference<List<PaymentOperation>> OPERATIONS = new TypeReference<>() {
    };
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };
    private static final TypeReference<Map<String, String>> STRINGS = new TypeReference<>() {
    };

    private static final String INSERT = """
            insert into payments (id, merchant_id, mode, status, intent, capture_method, amount, currency,
                country, authorized_amount, authorization_expires_at, paid_amount, voided_amount,
                payment_method_details, card_fingerprint, external_reference, last_payment_error, metadata,
                payment_session_id, customer_id, obligation_id, version, operations, revision, lease_until,
                created_at, updated_at, payment_method_id, mandate_id, charge_date, subscription_id,
                subscription_period, period_attempt, off_session, will_retry, next_retry_at)
            values (:id, :merchant, :mode, :status, :intent, :captureMethod, :amount, :currency,
                :country, :authorized, :expiresAt, :paid, :voided,
                :details::jsonb, :fingerprint, :externalReference, :lastError::jsonb, :metadata::jsonb,
                :session, :customer, :obligation, :version, :operations::jsonb, 1, :lease,
                :createdAt, :updatedAt, :paymentMethod, :mandate, :chargeDate, :subscription,
                :period, :periodAttempt, :offSession, :willRetry, :nextRetryAt)""";

    private final JdbcClient jdbc;
    private final NamedParameterJdbcTemplate batches;
    private final LeasedRows rows;
    private final JsonMapper json;
    private final Rejections rejections;

    Payments(JdbcClient jdbc, NamedParameterJdbcTemplate batches, JsonMapper json, Rejections rejections) {
        this.jdbc = jdbc;
        this.batches = batches;
        this.rows = new LeasedRows(jdbc, "payments");
        this.json = json;
        this.rejections = rejections;
    }

    /**
     * Records a payment that has succeeded in full, for one obligation (billing's test helper). Runs in the caller's
     * transaction, so that the payment and what it pays for commit together.
     */
    public Payment recordSucceeded(Caller caller, long amount, String currency, String obligationId) {
        return recordSucceeded(caller, amount, currency, obligationId, null);
    }

    /** {@link #recordSucceeded(Caller, long, String, String)}, naming the customer whose obligation it is. */
    public Payment recordSucceeded(Caller caller, long amount, String currency, String obligationId, String customerId) {
        Transactions.mandatory("recording a succeeded payment");
        Payment payment = Payment.succeeded(caller.merchantId(), caller.mode(), amount, currency, obligationId,
                customerId, Timestamps.now());
        insert(payment, null);
        return payment;
    }

    void insert(Payment p, Duration lease) {
        jdbc.sql(INSERT).params(inserting(p, lease)).update();
        p.written();
    }

    /** Inserts the payments as {@link #insert} does, in one round trip (a JDBC batch). */
    void insertAll(List<Payment> payments, Duration lease) {
        if (payments.isEmpty()) {
            return;
        }
        batches.batchUpdate(INSERT, payments.stream().map(p -> inserting(p, lease)).toArray(Map[]::new));
        payments.forEach(Payment::written);
    }

    private Map<String, Object> inserting(Payment p, Duration lease) {
        Map<String, Object> params = changing(p, lease);
        params.put("merchant", p.merchantId());
        params.put("mode", p.mode().wire());
        params.put("intent", p.intent().wire());
        params.put("captureMethod", p.captureMethod().wire());
        params.put("amount", p.amount());
        params.put("currency", p.currency());
        params.put("country", p.country());
        params.put("fingerprint", p.cardFingerprint());
        params.put("externalReference", p.externalReference());
        params.put("session", p.paymentSessionId());
        params.put("customer", p.customerId());
        params.put("obligation", p.obligationId());
        params.put("createdAt", p.createdAt().atOffset(ZoneOffset.UTC));
        var series = p.series();
        params.put("subscription", series == null ? null : series.subscriptionId());
        params.put("period", series == null ? null : series.period());
        params.put("periodAttempt", series == null ? null : series.attempt());
        params.put("offSession", series != null && series.offSession());
        return params;
    }

    private static final String UPDATE = """
            update payments set status = :status, authorized_amount = :authorized,
                authorization_expires_at = :expiresAt, paid_amount = :paid, voided_amount = :voided,
                payment_method_details = :details::jsonb, last_payment_error = :lastError::jsonb,
                metadata = :metadata::jsonb, payment_method_id = :paymentMethod, version = version + :versionMoved,
                operations = :operations::jsonb, mandate_id = :mandate, charge_date = :chargeDate,
                will_retry = :willRetry, next_retry_at = :nextRetryAt,
                revision = revision + 1, lease_until = :lease, updated_at = :updatedAt
            where id = :id and revision = :revision""";

    /** Writes the payment's new state if nobody else wrote it since it was read ({@code StaleWrite} otherwise). */
    void update(Payment p, Duration lease) {
        rows.updateOrThrow(p.id(), changing(p, lease), UPDATE);
        p.written();
    }

    /**
     * Writes the payments as {@link #update} does each, in one round trip (a JDBC batch); {@code StaleWrite} (and the
     * caller's transaction rolls back) unless each was written.
     */
    void updateAll(List<Payment> payments, Duration lease) {
        if (payments.isEmpty()) {
            return;
        }
        int[] written = batches.batchUpdate(UPDATE, payments.stream().map(p -> changing(p, lease)).toArray(Map[]::new));
        for (int i = 0; i < written.length; i++) {
            rows.requireWritten(payments.get(i).id(), written[i]);
        }
        payments.forEach(Payment::written);
    }

    /**
     * The payments' revisions, each row locked until the caller's transaction ends (in the order of their ids): a
     * writer of several sees at once which another writer moved since it read them.
     */
    Map<String, Integer> lockRevisions(java.util.Collection<String> ids) {
        Map<String, Integer> found = new HashMap<>();
        jdbc.sql("select id, revision from payments where id = any(?::text[]) order by id for update")
                .param(ids.toArray(String[]::new))
                .query((rs, i) -> Map.entry(rs.getString(1), rs.getInt(2))).list()
                .forEach(e -> found.put(e.getKey(), e.getValue()));
        return found;
    }

    void release(Payment p) {
        rows.release(p.id(), p.revision());
    }

    /**
     * Takes payments for the recovery job: those with a processor call pending and untouched since
     * {@code settledBefore}, and manual authorizations past their expiry with something left to release.
     */
    List<Payment> claimUnfinished(Instant settledBefore, Instant now, Duration lease, int limit) {
        return rows.claim("""
                        status in ('pending', 'succeeded')
                        and ((updated_at < :settledBefore and (operations @> '[{"status": "PENDING"}]'::jsonb
                                                               or operations @> '[{"status": "UNKNOWN"}]'::jsonb))
                             or (status = 'succeeded' and capture_method = 'manual'
                                 and authorization_expires_at < :now
                                 and paid_amount + voided_amount < authorized_amount))""",
                Map.of("settledBefore", settledBefore.atOffset(ZoneOffset.UTC), "now", now.atOffset(ZoneOffset.UTC)),
                lease, limit, this::map);
    }

    public Optional<Payment> find(Caller caller, String id) {
        return jdbc.sql("select * from payments where id = ? and merchant_id = ? and mode = ?")
                .params(id, caller.merchantId(), caller.mode().wire())
                .query(this::map).optional();
    }

    /**
     * The payment, or {@link PaymentRejection.PaymentNotFound} (404 {@code payment_not_found}) for unknown ids and
     * other merchants' or modes' payments; worded, as billing calls this and reads the message.
     */
    public Payment get(Caller caller, String id) {
        return find(caller, id).orElseThrow(() -> rejections.rejected(new PaymentRejection.PaymentNotFound()));
    }

    /**
     * The payment, held until the caller's transaction ends: refunds of one payment are checked against its
     * {@code paid_amount} one at a time. {@link PaymentRejection.PaymentNotFound} as {@link #get}.
     */
    Payment lock(Caller caller, String id) {
        return jdbc.sql("select * from payments where id = ? and merchant_id = ? and mode = ? for update")
                .params(id, caller.merchantId(), caller.mode().wire()).query(this::map).optional()
                .orElseThrow(() -> new PaymentRejection.PaymentNotFound().thrown());
    }

    /**
     * Adds a succeeded refund to the payment's {@code refunded_amount} (and moves its {@code version}), in the
     * transaction recording the success. It changes no state a writer of the payment holds (no revision), so a capture
     * in flight is not disturbed.
     */
    void addRefunded(String paymentId, long amount) {
        jdbc.sql("update payments set refunded_amount = refunded_amount + ?, version = version + 1 where id = ?")
                .params(amount, paymentId).update();
    }

    /**
     * Moves the payment's {@code version} when a refund of it is recorded, in the transaction holding its lock, so that
     * an {@code If-Match} of the version read before cannot refund it again under another Idempotency-Key. Like
     * {@link #addRefunded}, it leaves the row's revision alone: a writer holding the payment is not disturbed.
     */
    void refundRecorded(String paymentId) {
        jdbc.sql("update payments set version = version + 1 where id = ?").param(paymentId).update();
    }

    /** See {@link MandatePayments#usage}. */
    MandatePayments.Usage mandateUsage(String mandateId, java.time.LocalDate start, java.time.LocalDate end) {
        return jdbc.sql("""
                        select coalesce(sum(amount), 0) as amount, count(*) as count from payments
                        where mandate_id = ? and charge_date >= ? and charge_date < ?
                          and status in ('draft', 'pending', 'succeeded')""")
                .params(mandateId, start, end)
                .query((rs, i) -> new MandatePayments.Usage(rs.getLong("amount"), rs.getInt("count"))).single();
    }

    /** See {@link MandatePayments#taken}. */
    MandatePayments.Taken mandateTaken(String mandateId, java.time.LocalDate date, java.time.LocalDate periodStart,
                                      java.time.LocalDate periodEnd, java.time.LocalDate from) {
        return jdbc.sql("""
                        select coalesce(sum(amount) filter (where charge_date >= :periodStart
                                                             and charge_date < :periodEnd), 0) as period_amount,
                               count(*) filter (where charge_date >= :periodStart
                                                 and charge_date < :periodEnd) as period_count,
                               count(*) filter (where off_session) as installments,
                               count(*) filter (where off_session and charge_date = :date) as on_date
                        from payments
                        where mandate_id = :mandate and status in ('draft', 'pending', 'succeeded')
                          and (cast(:from as date) is null or charge_date >= cast(:from as date))""")
                .param("mandate", mandateId).param("date", date).param("from", from)
                .param("periodStart", periodStart).param("periodEnd", periodEnd)
                .query((rs, i) -> new MandatePayments.Taken(
                        new MandatePayments.Usage(rs.getLong("period_amount"), rs.getInt("period_count")),
                        rs.getInt("installments"), rs.getInt("on_date") > 0))
                .single();
    }

    /** A payment by id alone, for the checkout and the recovery job (which act for the payment's own merchant). */
    Optional<Payment> find(String id) {
        return jdbc.sql("select * from payments where id = ?").param(id).query(this::map).optional();
    }

    List<Payment> list(Caller caller, ListQuery query, String status, String session, String externalReference) {
        return ListSql.from("select * from payments").ownedBy(caller).where("status", status)
                .where("payment_session_id", session).where("external_reference", externalReference)
                .page(jdbc, query, this::map);
    }

    private Map<String, Object> changing(Payment p, Duration lease) {
        Map<String, Object> params = LeasedRows.writeParams(p.id(), p.revision(), lease, p.updatedAt());
        params.put("status", p.status().wire());
        params.put("authorized", p.authorizedAmount());
        params.put("expiresAt", p.authorizationExpiresAt() == null ? null
                : p.authorizationExpiresAt().atOffset(ZoneOffset.UTC));
        params.put("paid", p.paidAmount());
        params.put("voided", p.voidedAmount());
        params.put("details", p.paymentMethodDetails() == null ? null : json.writeValueAsString(p.paymentMethodDetails()));
        params.put("lastError", p.lastPaymentError() == null ? null : json.writeValueAsString(p.lastPaymentError()));
        params.put("metadata", p.metadata() == null ? null : json.writeValueAsString(p.metadata()));
        params.put("version", p.version());
        params.put("versionMoved", p.versionMoved());
        params.put("paymentMethod", p.paymentMethodId());
        params.put("operations", json.writeValueAsString(p.operations()));
        params.put("mandate", p.series() == null ? null : p.series().mandateId());
        params.put("chargeDate", p.series() == null ? null : p.series().chargeDate());
        params.put("willRetry", p.retry() == null ? null : p.retry().willRetry());
        params.put("nextRetryAt", p.retry() == null || p.retry().nextRetryAt() == null ? null
                : p.retry().nextRetryAt().atOffset(ZoneOffset.UTC));
        return params;
    }

    private Payment map(ResultSet rs, int row) throws SQLException {
        String details = rs.getString("payment_method_details");
        String lastError = rs.getString("last_payment_error");
        String metadata = rs.getString("metadata");
        Timestamp expires = rs.getTimestamp("authorization_expires_at");
        var terms = new Payment.Terms(rs.getString("merchant_id"), Mode.fromWire(rs.getString("mode")),
                PaymentIntent.valueOf(rs.getString("intent").toUpperCase()),
                CaptureMethod.valueOf(rs.getString("capture_method").toUpperCase()), rs.getLong("amount"),
                rs.getString("currency"), rs.getString("country"), rs.getString("customer_id"),
                rs.getString("obligation_id"));
        var attempt = new Payment.Attempt(rs.getString("payment_session_id"), rs.getString("external_reference"),
                rs.getString("card_fingerprint"));
        return Payment.restored(new Payment.Snapshot(
                rs.getString("id"),
                terms,
                attempt,
                rs.getTimestamp("created_at").toInstant(),
                details == null ? null : json.readValue(details, OBJECT),
                metadata == null ? null : json.readValue(metadata, STRINGS),
                rs.getString("payment_method_id"),
                PaymentStatus.fromWire(rs.getString("status")),
                rs.getLong("authorized_amount"),
                expires == null ? null : expires.toInstant(),
                rs.getLong("paid_amount"),
                rs.getLong("voided_amount"),
                rs.getLong("refunded_amount"),
                lastError == null ? null : json.readValue(lastError, PaymentError.class),
                rs.getInt("version"),
                json.readValue(rs.getString("operations"), OPERATIONS),
                rs.getTimestamp("updated_at").toInstant(),
                rs.getInt("revision"),
                series(rs),
                rs.getObject("will_retry") == null ? null : new ChargeRetry(rs.getBoolean("will_retry"),
                        rs.getTimestamp("next_retry_at") == null ? null : rs.getTimestamp("next_retry_at").toInstant())));
    }

    private static SeriesCharge series(ResultSet rs) throws SQLException {
        String mandate = rs.getString("mandate_id");
        if (mandate == null) {
            return null;
        }
        java.sql.Date date = rs.getDate("charge_date");
        String subscription = rs.getString("subscription_id");
        return new SeriesCharge(mandate, date == null ? null : date.toLocalDate(), subscription == null ? null
                : new SeriesCharge.Period(subscription, rs.getInt("subscription_period"), rs.getInt("period_attempt")),
                rs.getBoolean("off_session"));
    }
}
