package io.tender.notify;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.mail.MailParseException;
import org.springframework.mail.MailPreparationException;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.util.List;

/**
 * Sends the queued payment links. Every {@code tender.notifications.interval} each instance claims due messages
 * ({@code SKIP LOCKED}, with a lease), sends each outside any transaction and records the outcome: sent, due again
 * after a pause that doubles, or failed for good (logged) after {@code max-attempts} or when the message cannot be
 * composed at all. Delivery is at least once: an instance that dies between the send and its record leaves the
 * message to be sent again once the lease has run out. Log lines name the message and its subject, never the link.
 */
@Component
record NotificationDispatcher(Notifications notifications, PaymentLinkMail mail, PaymentLinkSms sms,
                              NotificationSettings settings, TransactionTemplate tx) implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(NotificationDispatcher.class);
    static final int BATCH = 20;
    private static final int MAX_ERROR = 300;

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(new FixedDelayTask(this::run, settings.interval(), settings.interval()));
    }

    void run() {
        while (dispatchOnce() == BATCH) {
            // a full batch: there may be more
        }
    }

    /** Claims one batch of due messages and sends them; returns how many it took. */
    int dispatchOnce() {
        List<Notifications.Claim> batch = tx.execute(s -> notifications.claimDue(BATCH, settings.lease()));
        for (var claim : batch) {
            if (!notifications.renew(claim, settings.lease())) {
                continue; // its lease ran out while earlier messages were sent: another instance has it now
            }
            try {
                send(claim);
            } catch (RuntimeException e) {
                log.warn("Notification {} for {} could not be recorded; it is retried after its lease: {}",
                        claim.id(), claim.subjectId(), describe(e));
            }
        }
        return batch.size();
    }

    private void send(Notifications.Claim claim) {
        try {
            switch (claim.channel()) {
                case EMAIL -> mail.send(claim.id(), claim.message());
                case SMS -> sms.send(claim.message());
            }
        } catch (RuntimeException e) {
            failed(claim, e);
            return;
        }
        // Logged before it is recorded: it has gone out whatever the record's fate, and a reader of the row finds the line.
        log.info("Notification {} sent by {} for {}", claim.id(), claim.channel().wire(), claim.subjectId());
        tx.executeWithoutResult(s -> notifications.sent(claim));
    }

    private void failed(Notifications.Claim claim, RuntimeException e) {
        String error = describe(e);
        boolean permanent = e instanceof MailPreparationException || e instanceof MailParseException;
        Duration retryAfter = permanent || claim.attempt() >= settings.maxAttempts() ? null
                : settings.pauseAfter(claim.attempt());
        tx.executeWithoutResult(s -> notifications.failed(claim, error, retryAfter));
        if (retryAfter == null) {
            log.warn("Notification {} by {} for {} failed on attempt {}; giving up: {}", claim.id(),
                    claim.channel().wire(), claim.subjectId(), claim.attempt(), error);
        } else {
            log.info("Notification {} by {} for {} failed on attempt {}; next in {}: {}", claim.id(),
                    claim.channel().wire(), claim.subjectId(), claim.attempt(), retryAfter, error);
        }
    }

    /**
     * The failure in one line for the log and {@code last_error}: the exception and its root cause (Spring's mail
     * exceptions list every nested failure over several lines), with any {@code ckt_} id masked.
     */
    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = e.getClass().getSimpleName() + (root == e ? "" : " (" + root.getClass().getSimpleName() + ")")
                + (root.getMessage() == null ? "" : ": " + root.getMessage());
        text = LinkSecrets.masked(text.replaceAll("\\s+", " "));
        return text.length() > MAX_ERROR ? text.substring(0, MAX_ERROR) + "…" : text;
    }
}
