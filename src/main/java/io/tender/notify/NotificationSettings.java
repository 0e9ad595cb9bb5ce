package io.tender.notify;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code tender.notifications.*}; the SMTP server itself is Spring Boot's {@code spring.mail.*}.
 *
 * @param interval    how often each instance's dispatcher looks for messages due (its {@code @Scheduled} delay)
 * @param mailFrom    the From of every email, an RFC 5322 address with an optional name
 * @param maxAttempts attempts per message; after the last failure it is marked failed and logged
 * @param retryBase   the pause after the first failed attempt; each later one doubles, up to {@code retryMax}
 * @param retryMax    the longest pause between two attempts
 * @param lease       how long a claimed message belongs to the instance sending it: longer than a send can take
 *                    (the SMTP timeouts), so only a message whose instance died is taken up again
 */
@ConfigurationProperties("tender.notifications")
record NotificationSettings(
        @DefaultValue("PT2S") Duration interval,
        @DefaultValue("Tender <no-reply@localhost>") String mailFrom,
        @DefaultValue("8") int maxAttempts,
        @DefaultValue("PT30S") Duration retryBase,
        @DefaultValue("PT1H") Duration retryMax,
        @DefaultValue("PT2M") Duration lease) {

    NotificationSettings {
        try {
            if (InternetAddress.parse(mailFrom, true).length != 1) {
                throw new AddressException("not one address");
            }
        } catch (AddressException e) {
            throw new IllegalArgumentException("tender.notifications.mail-from must be one email address, such as "
                    + "'Shop <payments@shop.example>'");
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("tender.notifications.max-attempts must be at least 1");
        }
        if (!positive(interval) || !positive(retryBase) || !positive(retryMax) || !positive(lease)) {
            throw new IllegalArgumentException("tender.notifications.interval, retry-base, retry-max and lease must "
                    + "be positive durations");
        }
    }

    /** The pause after this many failed attempts in a row: {@code retryBase} doubled each time, at most {@code retryMax}. */
    Duration pauseAfter(int failures) {
        Duration pause = retryBase;
        for (int i = 1; i < failures && pause.compareTo(retryMax) < 0; i++) {
            pause = pause.multipliedBy(2);
        }
        return pause.compareTo(retryMax) < 0 ? pause : retryMax;
    }

    private static boolean positive(Duration d) {
        return d != null && !d.isNegative() && !d.isZero();
    }
}
