package io.tender.notify;

import io.tender.api.Ids;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;

/** The {@code notifications} table: payment links waiting to be sent, sent, or given up on. */
@Repository
class Notifications {

    /** A message this instance has claimed, on its {@code attempt}-th try; it owns it until the lease runs out. */
    record Claim(String id, String merchantId, Mode mode, String subjectId, Channel channel,
                 PaymentLinkMessage message, int attempt) {
    }

    private final JdbcClient jdbc;

    Notifications(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Queues a message, due now, in the caller's transaction. */
    String insert(Caller caller, String subjectId, Channel channel, PaymentLinkMessage m) {
        String id = Ids.newId("ntf_");
        jdbc.sql("""
                        insert into notifications (id, merchant_id, mode, subject_id, channel, merchant_name,
                            recipient_name, email, phone, url, amount, currency, description, expires_at, status,
                            attempts, next_attempt_at, created_at, updated_at)
                        values (:id, :merchant, :mode, :subject, :channel, :merchantName, :recipientName, :email,
                            :phone, :url, :amount, :currency, :description, :expiresAt, 'pending', 0, now(), now(),
                            now())""")
                .param("id", id)
                .param("merchant", caller.merchantId())
                .param("mode", caller.mode().wire())
                .param("subject", subjectId)
                .param("channel", channel.wire())
                .param("merchantName", m.merchantName())
                .param("recipientName", m.recipientName())
                .param("email", channel == Channel.EMAIL ? m.email() : null)
                .param("phone", channel == Channel.SMS ? m.phone() : null)
                .param("url", m.url())
                .param("amount", m.amount())
                .param("currency", m.currency())
                .param("description", m.description())
                .param("expiresAt", m.expiresAt() == null ? null : Timestamp.from(m.expiresAt()))
                .update();
        return id;
    }

    /**
     * Claims up to {@code limit} due messages, oldest first, skipping rows other instances hold, and leases them by
     * moving {@code next_attempt_at} past the lease.
     */
    List<Claim> claimDue(int limit, Duration lease) {
        return jdbc.sql("""
                        with due as (
                            select id from notifications
                            where status = 'pending' and next_attempt_at <= now()
                            order by next_attempt_at
                            limit :limit
                            for update skip locked)
                        update notifications n
                        set attempts = n.attempts + 1, next_attempt_at = now() + cast(:lease as interval),
                            updated_at = now()
                        from due where n.id = due.id
                        returning n.*""")
                .param("limit", limit)
                .param("lease", lease.toString())
                .query(Notifications::claim)
                .list();
    }

    /**
     * Renews the claim's lease just before its message is sent, so that a slow batch cannot outlive a later
     * message's lease and let another instance send it too. False when the claim is no longer this attempt's.
     */
    boolean renew(Claim claim, Duration lease) {
        return jdbc.sql("""
                        update notifications set next_attempt_at = now() + cast(:lease as interval), updated_at = now()
                        where id = :id and status = 'pending' and attempts = :attempt""")
                .param("lease", lease.toString())
                .param("id", claim.id())
                .param("attempt", claim.attempt())
                .update() == 1;
    }

    /** The message went out. Written only while the claim is still this attempt's. */
    void sent(Claim claim) {
        jdbc.sql("""
                        update notifications set status = 'sent', sent_at = now(), last_error = null, updated_at = now()
                        where id = ? and status = 'pending' and attempts = ?""")
                .params(claim.id(), claim.attempt())
                .update();
    }

    /** The attempt failed: due again after {@code retryAfter}, or failed for good when it is null. */
    void failed(Claim claim, String error, Duration retryAfter) {
        jdbc.sql("""
                        update notifications
                        set status = case when cast(:retryAfter as interval) is null then 'failed' else 'pending' end,
                            next_attempt_at = coalesce(now() + cast(:retryAfter as interval), next_attempt_at),
                            last_error = :error, updated_at = now()
                        where id = :id and status = 'pending' and attempts = :attempt""")
                .param("retryAfter", retryAfter == null ? null : retryAfter.toString())
                .param("error", error)
                .param("id", claim.id())
                .param("attempt", claim.attempt())
                .update();
    }

    private static Claim claim(ResultSet rs, int row) throws SQLException {
        Timestamp expiresAt = rs.getTimestamp("expires_at");
        Mode mode = Mode.fromWire(rs.getString("mode"));
        var message = new PaymentLinkMessage(rs.getString("merchant_name"), rs.getString("recipient_name"),
                rs.getString("email"), rs.getString("phone"), rs.getString("url"), rs.getLong("amount"),
                rs.getString("currency"), rs.getString("description"),
                expiresAt == null ? null : expiresAt.toInstant(), mode);
        return new Claim(rs.getString("id"), rs.getString("merchant_id"), mode, rs.getString("subject_id"),
                Channel.fromWire(rs.getString("channel")), message, rs.getInt("attempts"));
    }
}
