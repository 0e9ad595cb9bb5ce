package io.tender.notify;

import io.tender.api.ApiException;
import io.tender.api.Ids;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The service in its default configuration: no SMTP server and no SMS gateway. Email cannot be asked for (422, nothing
 * queued); test-mode SMS goes to the log, one line with the phone's last 4 digits and the link's {@code ckt_} id cut
 * to its last 4 characters, so the log never holds a link that opens the checkout; live-mode SMS cannot be asked for.
 */
@ExtendWith(OutputCaptureExtension.class)
class NotificationsWithoutMailIT extends ApiIntegrationTest {

    @Autowired
    private PaymentLinkNotifications notifications;

    @Autowired
    private TransactionTemplate tx;

    @Test
    void emailIsNotAvailableAndAskingForItIsRefusedWithNothingQueued() {
        var merchant = merchants.create();
        String subject = Ids.newId("pr_");
        assertThat(notifications.emailAvailable()).isFalse();

        assertThatThrownBy(() -> tx.executeWithoutResult(s -> notifications.enqueue(
                Caller.system(merchant.id(), Mode.TEST), subject, Channel.EMAIL, message("payer@example.com", null,
                        "ckt_" + Ids.randomHex(16), Mode.TEST))))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(422);
                    assertThat(e.code().code()).isEqualTo("operation_not_allowed");
                });
        assertThat(queued(subject)).isZero();
    }

    @Test
    void smsIsAvailableInTestModeOnlyAndALiveSmsIsRefusedWithNothingQueued() {
        var merchant = merchants.create();
        String subject = Ids.newId("pr_");
        assertThat(notifications.smsAvailable(Mode.TEST)).isTrue();
        assertThat(notifications.smsAvailable(Mode.LIVE)).isFalse();

        assertThatThrownBy(() -> tx.executeWithoutResult(s -> notifications.enqueue(
                Caller.system(merchant.id(), Mode.LIVE), subject, Channel.SMS, message(null, "+27821234567",
                        "ckt_" + Ids.randomHex(16), Mode.LIVE))))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(422));
        assertThat(queued(subject)).isZero();
    }

    @Test
    void aTestModeSmsIsOneLogLineWithoutThePhoneNumberOrTheLinksSecret(CapturedOutput output) {
        var merchant = merchants.create();
        String subject = Ids.newId("pr_");
        String ckt = "ckt_" + Ids.randomHex(16);
        String url = base() + "/checkout/" + ckt;

        tx.executeWithoutResult(s -> notifications.enqueue(Caller.system(merchant.id(), Mode.TEST), subject,
                Channel.SMS, message(null, "+27829876543", ckt, Mode.TEST)));

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            notifications.dispatchOnce();
            assertThat(jdbc.sql("select status from notifications where subject_id = ?").params(subject)
                    .query(String.class).single()).isEqualTo("sent");
        });
        String line = output.getAll().lines().filter(l -> l.contains("SMS (test mode, not sent)"))
                .filter(l -> l.contains(ckt.substring(ckt.length() - 4))).findFirst().orElseThrow();
        assertThat(line).contains("to ********6543: [Test] Shop & Co asks you to pay ZAR 150.00 for Invoice 42",
                "/checkout/ckt_…" + ckt.substring(ckt.length() - 4));
        assertThat(output.getAll()).doesNotContain(ckt, url, ckt.substring(4, 20), "+27829876543", "829876543")
                .contains("sent by sms for " + subject);
    }

    private PaymentLinkMessage message(String email, String phone, String ckt, Mode mode) {
        return new PaymentLinkMessage("Shop & Co", "Grace", email, phone, base() + "/checkout/" + ckt, 15000, "ZAR",
                "Invoice 42", Instant.now().plus(Duration.ofDays(1)), mode);
    }

    private int queued(String subject) {
        return jdbc.sql("select count(*) from notifications where subject_id = ?").params(subject)
                .query(Integer.class).single();
    }
}
