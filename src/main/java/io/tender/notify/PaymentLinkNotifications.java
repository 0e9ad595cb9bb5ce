package io.tender.notify;

import io.tender.api.Rejections;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import org.springframework.stereotype.Service;

import java.util.Objects;

/**
 * Sends a payer the link to pay at (decisions §7, {@code notify}). {@link #enqueue} queues the message in the
 * caller's database transaction, so it goes out exactly when the request that asked for it commits and survives a
 * crash; the dispatcher sends it within {@code tender.notifications.interval}, retrying on failure.
 */
@Service
public class PaymentLinkNotifications {

    private final Notifications notifications;
    private final PaymentLinkMail mail;
    private final PaymentLinkSms sms;
    private final NotificationDispatcher dispatcher;
    private final Rejections rejections;

    PaymentLinkNotifications(Notifications notifications, PaymentLinkMail mail, PaymentLinkSms sms,
                             NotificationDispatcher dispatcher, Rejections rejections) {
        this.notifications = notifications;
        this.mail = mail;
        this.sms = sms;
        this.dispatcher = dispatcher;
        this.rejections = rejections;
    }

    /** True only when the operator configured an SMTP server ({@code spring.mail.host}). */
    public boolean emailAvailable() {
        return mail.available();
    }

    /** Test mode: always (the log stands in for the SMS). Live mode: only with the operator's own {@link SmsSender}. */
    public boolean smsAvailable(Mode mode) {
        return sms.available(mode);
    }

    /** {@link #emailAvailable()} or {@link #smsAvailable(Mode)} for the channel. */
    public boolean available(Channel channel, Mode mode) {
        return channel == Channel.EMAIL ? emailAvailable() : smsAvailable(mode);
    }

    /**
     * Queues the message for sending, in the caller's transaction (call it inside the transaction that creates
     * {@code subjectId}, such as a {@code pr_} id, which the log and the table name it by). The recipient is
     * {@code message.email()} or {@code message.phone()}, already validated by the caller.
     *
     * @throws io.tender.api.ApiException 422 {@code operation_not_allowed} when the channel is not available to the
     *         caller's mode: the problem {@link NotifyProblems} words for the {@link NotifyRejection} (this public
     *         facade answers problems, as other modules and its tests call it)
     */
    public void enqueue(Caller caller, String subjectId, Channel channel, PaymentLinkMessage message) {
        Objects.requireNonNull(subjectId, "subjectId");
        if (message.mode() != caller.mode()) {
            throw new IllegalArgumentException("the message's mode is not the caller's");
        }
        if (Objects.requireNonNull(channel == Channel.EMAIL ? message.email() : message.phone(), "recipient").isBlank()
                || message.url() == null || message.merchantName() == null || message.currency() == null) {
            throw new IllegalArgumentException("a payment link message needs a recipient, url, merchant and currency");
        }
        if (!available(channel, caller.mode())) {
            throw rejections.problem(new NotifyRejection.ChannelUnavailable(channel));
        }
        notifications.insert(caller, subjectId, channel, message);
    }

    /** Sends one batch of due messages now, in the calling thread; returns how many it took. For tests and tooling. */
    public int dispatchOnce() {
        return dispatcher.dispatchOnce();
    }
}
