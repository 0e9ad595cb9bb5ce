package io.tender.dashboard;

import io.tender.api.Timestamps;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.ZoneOffset;

/**
 * The dashboard's audit log (decisions §11, §13): append-only, and a merchant's alone. This class only inserts, a
 * trigger refuses any update, delete or truncate of the table, and a check refuses a row of no merchant (V73): what
 * nobody's account is about (a sign-in for an email no user has) goes to the service's own log instead.
 */
@Repository
class AuditLog {

    /**
     * One entry. Its action must be one of {@link AuditActions}: an action without words, which the log's page could
     * neither name nor filter, is refused here, so the test of whatever writes it fails.
     */
    record Entry(String merchantId, String userId, String actor, String action, String target, String mode,
                 String beforeJson, String afterJson) {
        Entry {
            if (!AuditActions.WORDS.containsKey(action)) {
                throw new IllegalArgumentException("The audit action " + action + " has no words: add it to "
                        + "AuditActions, which gives the log's page its words and its filter.");
            }
        }

        /** Something a user did to their own account (signing in, choosing a password), in no mode. */
        static Entry ofOwnAccount(DashboardUsers.User user, String action, String afterJson) {
            return new Entry(user.merchantId(), user.id(), user.email(), action, user.id(), null, null, afterJson);
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
