package io.tender.payment;

import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Instant;

/**
 * For tests of other packages (payment requests, pages): moves a session past its expiry and runs the recovery job's
 * expiry now, as {@link SessionExpiryIT} does, instead of waiting for the scheduled run.
 */
public final class SessionClock {

    private SessionClock() {
    }

    /** Sets the session's {@code expires_at} a second in the past and lets the recovery job end it. */
    public static void expire(ApplicationContext context, String paymentSessionId) {
        JdbcClient jdbc = context.getBean(JdbcClient.class);
        jdbc.sql("update payment_sessions set expires_at = now() - interval '1 second' where id = ?")
                .param(paymentSessionId).update();
        context.getBean(PaymentRecovery.class).expireSessions(Instant.now());
    }
}
