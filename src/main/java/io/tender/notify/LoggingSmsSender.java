package io.tender.notify;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Test mode's SMS gateway: one INFO line per message instead of an SMS, with the phone number masked to its last 4
 * digits and the link's {@code ckt_} id to its last 4 characters, so a developer sees what would be sent and the log
 * never holds a working link.
 */
public class LoggingSmsSender implements SmsSender {

    private static final Logger log = LoggerFactory.getLogger(LoggingSmsSender.class);

    @Override
    public void send(String phoneE164, String text) {
        log.info("SMS (test mode, not sent) to {}: {}", maskedPhone(phoneE164), LinkSecrets.masked(text));
    }

    static String maskedPhone(String phone) {
        int visible = Math.min(4, phone.length());
        return "*".repeat(phone.length() - visible) + phone.substring(phone.length() - visible);
    }
}
