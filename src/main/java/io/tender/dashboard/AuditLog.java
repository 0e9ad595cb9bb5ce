package io.tender.dashboard;

import io.tender.api.Timestamps;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.ZoneOffset;

/**
 * The dashboard's audit log (decisions §11): append-only. This class only inserts, and a trigger refuses any update,
 * delete or truncate of the table.
 */
@Repository
class AuditLog {

    /** One entry: {@code userId} and {@code merchantId} are null when a sign-in failed for an unknown email. */
    record Entry(String merchantId, String userId, String actor, String action, String target, String mode,
                 String beforeJson, String afterJson) {
        /** What {@code userId} did as themself (signing in, say); null ids for an email that is no one user's. */
        static Entry bySelf(String merchantId, String userId, String actor, String action) {
            return new Entry(merchantId, userId, actor, action, userId, null, null, null);
        }

        static Entry bySelf(DashboardUsers.User user, String action) {
            return bySelf(user.merchantId(), user.id(), user.email(), action);
        }

        Entry after(String json) {
            return new Entry(merchantId, userId, actor, action, target, mode, beforeJson, json);
        }
    }

    private static final int MAX_USER_AGENT = 512;

    private final JdbcClient jdbc;

    AuditLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void append(Entry entry, HttpServletRequest request) {
        String agent = request == null ? null : request.getHeader("User-Agent");
        if (agent != null && agent.length() > MAX_USER_AGENT) {
            agent = agent.substring(0, MAX_USER_AGENT);
        }
        jdbc.sql("insert into dashboard_audit_log (occurred_at, merchant_id, user_id, actor, action, target, mode, "
                        + "client_address, user_agent, before_state, after_state) "
                        + "values (?, ?, ?, ?, ?, ?, ?, ?, ?, cast(? as jsonb), cast(? as jsonb))")
                .params(Timestamps.now().atOffset(ZoneOffset.UTC), entry.merchantId(), entry.userId(), entry.actor(),
                        entry.action(), entry.target(), entry.mode(),
                        request == null ? null : request.getRemoteAddr(), agent, entry.beforeJson(),
                        entry.afterJson())
                .update();
    }
}
