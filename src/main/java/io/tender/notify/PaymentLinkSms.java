package io.tender.notify;

import io.tender.auth.Mode;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Payment links by SMS. Test mode always goes to {@link LoggingSmsSender} (a sandbox request texts nobody, as it
 * moves no money); live mode goes to the operator's own {@link SmsSender} bean, and without one live SMS is not offered.
 */
@Component
class PaymentLinkSms {

    private final ObjectProvider<SmsSender> configured;
    private final SmsSender testMode = new LoggingSmsSender();

    PaymentLinkSms(ObjectProvider<SmsSender> configured) {
        this.configured = configured;
    }

    boolean available(Mode mode) {
        return sender(mode) != null;
    }

    /** Sends the SMS; throws when it did not go out (the caller retries). */
    void send(PaymentLinkMessage m) {
        SmsSender sender = sender(m.mode());
        if (sender == null) {
            throw new IllegalStateException("no SMS gateway is configured for live mode");
        }
        sender.send(m.phone(), PaymentLinkTexts.sms(m));
    }

    private SmsSender sender(Mode mode) {
        if (mode == Mode.TEST) {
            return testMode;
        }
        SmsSender live = configured.getIfUnique();
        return live instanceof LoggingSmsSender ? null : live;
    }
}
