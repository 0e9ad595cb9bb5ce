package io.tender.notify;

import io.tender.auth.Mode;
import org.junit.jupiter.api.Test;
import org.springframework.mail.MailSendException;

import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the notifications write where people read it: the SMS, log lines, and the retry pauses. */
class NotificationTextsTest {

    private static final String CKT = "ckt_0123456789abcdef0123456789abcdef";
    private static final String URL = "https://pay.example.com/checkout/" + CKT;

    @Test
    void aCheckoutIdIsCutToItsLastFourCharactersWhereverItStands() {
        assertThat(LinkSecrets.masked("open " + URL + " now")).isEqualTo("open https://pay.example.com/checkout/ckt_…cdef now");
        assertThat(LinkSecrets.masked(CKT + "," + CKT)).isEqualTo("ckt_…cdef,ckt_…cdef");
        assertThat(LinkSecrets.masked("ckt_ab and ckt_")).isEqualTo("ckt_… and ckt_");
        assertThat(LinkSecrets.masked(LinkSecrets.masked(URL))).isEqualTo(LinkSecrets.masked(URL));
        assertThat(LinkSecrets.masked("no link here")).isEqualTo("no link here");
    }

    @Test
    void theTestModeSmsLogLineShowsThePhonesLastFourDigitsAndNoWorkingLink() {
        var message = new PaymentLinkMessage("Shop", null, null, "+27821234567", URL, 15000, "ZAR",
                "A very long description of what this payment is for, longer than an SMS should carry",
                Instant.parse("2026-05-20T08:25:01.014Z"), Mode.TEST);

        String sms = PaymentLinkTexts.sms(message);

        assertThat(sms).startsWith("[Test] Shop asks you to pay ZAR 150.00 for A very long description")
                .contains("…", " by 20 May 2026, 08:25 UTC: " + URL);
        assertThat(LoggingSmsSender.maskedPhone("+27821234567")).isEqualTo("********4567");
    }

    @Test
    void aFailureIsDescribedOnOneLineWithItsCauseAndNoCheckoutId() {
        var failure = new MailSendException("Mail server connection failed.\n  nested exception is:\n\t" + URL,
                new ConnectException("Connection refused"));

        assertThat(NotificationDispatcher.describe(failure))
                .isEqualTo("MailSendException (ConnectException): Connection refused");
        assertThat(NotificationDispatcher.describe(new IllegalStateException("cannot open " + URL + "\nat all")))
                .isEqualTo("IllegalStateException: cannot open https://pay.example.com/checkout/ckt_…cdef at all");
    }

    @Test
    void pausesDoubleFromTheFirstUpToTheLongest() {
        var settings = settings("Tender <no-reply@localhost>", 8);

        assertThat(settings.pauseAfter(1)).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.pauseAfter(2)).isEqualTo(Duration.ofMinutes(1));
        assertThat(settings.pauseAfter(4)).isEqualTo(Duration.ofMinutes(4));
        assertThat(settings.pauseAfter(7)).isEqualTo(Duration.ofMinutes(32));
        assertThat(settings.pauseAfter(8)).isEqualTo(Duration.ofHours(1));
        assertThat(settings.pauseAfter(1000)).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void startUpRefusesAFromThatIsNotOneAddressAndNoAttempts() {
        assertThatThrownBy(() -> settings("not an address", 8)).hasMessageContaining("tender.notifications.mail-from");
        assertThatThrownBy(() -> settings("a@b.example, c@d.example", 8))
                .hasMessageContaining("tender.notifications.mail-from");
        assertThatThrownBy(() -> settings("a@b.example", 0)).hasMessageContaining("tender.notifications.max-attempts");
    }

    private static NotificationSettings settings(String from, int attempts) {
        return new NotificationSettings(Duration.ofSeconds(2), from, attempts, Duration.ofSeconds(30),
                Duration.ofHours(1), Duration.ofMinutes(2));
    }
}
