package io.tender.notify;

import io.tender.api.Ids;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.support.MailIntegrationTest;
import jakarta.mail.BodyPart;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Payment links by email (decisions §7, notify.email) against a real SMTP server: the message arrives as text and
 * HTML, each with the link, the amount as the checkout shows it and the merchant's name; a mail server that is down
 * delays it (retried with backoff) and a mail server down for good makes it fail after the last attempt, logged;
 * several dispatchers at once send each message once. No log line carries the link or its {@code ckt_} id.
 */
@ExtendWith(OutputCaptureExtension.class)
class PaymentLinkNotificationsIT extends MailIntegrationTest {

    @Autowired
    private PaymentLinkNotifications notifications;

    @Autowired
    private TransactionTemplate tx;

    @AfterEach
    void mailServerBackUp() {
        if (!SMTP.isRunning()) {
            SMTP.start();
        }
    }

    @Test
    void emailIsAvailableWhenAMailServerIsConfigured() {
        assertThat(notifications.emailAvailable()).isTrue();
    }

    @Test
    void theEmailArrivesWithTheLinkTheAmountAndTheMerchantAsTextAndHtml(CapturedOutput output) throws Exception {
        var merchant = merchants.create();
        String ckt = checkoutId();
        String url = base() + "/checkout/" + ckt;
        String email = recipient();
        String subject = Ids.newId("pr_");
        var message = new PaymentLinkMessage("Ada & Sons <Ltd>", "Grace Hopper", email, null, url, 15000, "ZAR",
                "Invoice <b>42</b>", Instant.parse("2026-05-20T08:25:01.014Z"), Mode.TEST);

        tx.executeWithoutResult(s -> notifications.enqueue(Caller.system(merchant.id(), Mode.TEST), subject,
                Channel.EMAIL, message));

        MimeMessage mail = awaitOneMessage(email);
        assertThat(mail.getSubject()).isEqualTo("[Test] Ada & Sons <Ltd> asks you to pay ZAR 150.00");
        assertThat(((InternetAddress) mail.getFrom()[0]).getAddress()).isEqualTo("payments@tender.test");
        assertThat(((InternetAddress) mail.getRecipients(MimeMessage.RecipientType.TO)[0]).getPersonal())
                .isEqualTo("Grace Hopper");
        Map<String, String> parts = textParts(mail);
        assertThat(parts).containsOnlyKeys("text/plain", "text/html");
        assertThat(alternatives(mail)).as("one multipart/alternative of the text and the HTML").isEqualTo(1);

        String text = parts.get("text/plain");
        assertThat(text).contains(url, "ZAR 150.00", "Ada & Sons <Ltd>", "Invoice <b>42</b>",
                "20 May 2026, 08:25 UTC", "test-mode");

        String html = parts.get("text/html");
        assertThat(html).contains("href=\"" + url + "\"", ">" + url + "<", "ZAR 150.00", "Ada &amp; Sons &lt;Ltd&gt;",
                "Invoice &lt;b&gt;42&lt;/b&gt;", "20 May 2026, 08:25 UTC");
        assertThat(html).doesNotContain("<b>42", "<Ltd>", "<img", "src=", "<link", "<script", "url(", "<!--");
        assertThat(html.replace(url, "")).doesNotContain("http:", "https:");

        // The mail server has the message a moment before the dispatcher records it as sent.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(row(subject)).containsEntry("status", "sent").containsEntry("attempts", 1));
        assertThat(output).contains("sent by email for " + subject).doesNotContain(url).doesNotContain(ckt);
    }

    @Test
    void anEmailThatFindsTheMailServerDownIsSentOnceItIsBackUp(CapturedOutput output) throws Exception {
        var queued = queueWhileTheMailServerIsDown();
        String ckt = queued.ckt();
        String email = queued.email();
        String subject = queued.subject();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            notifications.dispatchOnce();
            assertThat(row(subject).get("last_error")).isNotNull();
        });
        assertThat(row(subject)).containsEntry("status", "pending");
        assertThat(receivedBy(email)).isEmpty();

        SMTP.start();
        MimeMessage mail = awaitOneMessage(email);
        assertThat(mail.getSubject()).contains("asks you to pay ZAR 150.00");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(row(subject)).containsEntry("status", "sent"));
        assertThat((Integer) row(subject).get("attempts")).isGreaterThanOrEqualTo(2);
        assertThat(output).contains("failed on attempt 1; next in").doesNotContain(ckt);
    }

    @Test
    void anEmailIsGivenUpAfterTheLastAttemptAndLogged(CapturedOutput output) {
        var queued = queueWhileTheMailServerIsDown();
        String ckt = queued.ckt();
        String email = queued.email();
        String subject = queued.subject();

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            notifications.dispatchOnce();
            assertThat(row(subject)).containsEntry("status", "failed");
        });
        assertThat(row(subject)).containsEntry("attempts", 5);
        String id = (String) row(subject).get("id");
        assertThat(output).contains(id + " by email for " + subject + " failed on attempt 5; giving up")
                .doesNotContain(ckt);

        SMTP.start();
        notifications.dispatchOnce();
        assertThat(receivedBy(email)).isEmpty();
        assertThat(row(subject)).containsEntry("status", "failed").containsEntry("attempts", 5);
    }

    @Test
    void severalDispatchersAtOnceSendEachMessageOnce() throws Exception {
        var merchant = merchants.create();
        List<String> emails = new ArrayList<>();
        tx.executeWithoutResult(s -> {
            for (int i = 0; i < 30; i++) {
                String email = recipient();
                emails.add(email);
                notifications.enqueue(Caller.system(merchant.id(), Mode.TEST), Ids.newId("pr_"), Channel.EMAIL,
                        linkTo(email, checkoutId()));
            }
        });

        try (var pool = Executors.newFixedThreadPool(4)) {
            List<Callable<Integer>> dispatchers = List.of(notifications::dispatchOnce, notifications::dispatchOnce,
                    notifications::dispatchOnce, notifications::dispatchOnce);
            pool.invokeAll(dispatchers);
        }

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            notifications.dispatchOnce();
            assertThat(emails).allSatisfy(email -> assertThat(receivedBy(email)).hasSize(1));
        });
        assertThat(jdbc.sql("select count(*) from notifications where merchant_id = ? and status = 'sent' "
                + "and attempts = 1").params(merchant.id()).query(Integer.class).single()).isEqualTo(30);
    }

    private record Queued(String subject, String email, String ckt) {
    }

    /** Stops the mail server and queues an email for a fresh merchant's request. */
    private Queued queueWhileTheMailServerIsDown() {
        var merchant = merchants.create();
        var queued = new Queued(Ids.newId("pr_"), recipient(), checkoutId());
        SMTP.stop();
        tx.executeWithoutResult(s -> notifications.enqueue(Caller.system(merchant.id(), Mode.TEST), queued.subject(),
                Channel.EMAIL, linkTo(queued.email(), queued.ckt())));
        return queued;
    }

    private PaymentLinkMessage linkTo(String email, String ckt) {
        return new PaymentLinkMessage("Shop", null, email, null, base() + "/checkout/" + ckt, 15000, "ZAR", null,
                null, Mode.TEST);
    }

    private static MimeMessage awaitOneMessage(String email) {
        await().atMost(Duration.ofSeconds(10)).until(() -> !receivedBy(email).isEmpty());
        assertThat(receivedBy(email)).hasSize(1);
        return receivedBy(email).getFirst();
    }

    private Map<String, Object> row(String subjectId) {
        return jdbc.sql("select id, status, attempts, last_error from notifications where subject_id = ?")
                .params(subjectId).query().singleRow();
    }

    /** The message's text parts by content type, wherever they sit in its multipart tree. */
    private static Map<String, String> textParts(Part part) throws Exception {
        var found = new java.util.LinkedHashMap<String, String>();
        if (part.isMimeType("multipart/*")) {
            Multipart multipart = (Multipart) part.getContent();
            if (part.isMimeType("multipart/alternative")) {
                assertThat(multipart.getCount()).isEqualTo(2);
            }
            for (int i = 0; i < multipart.getCount(); i++) {
                BodyPart child = multipart.getBodyPart(i);
                found.putAll(textParts(child));
            }
        } else if (part.isMimeType("text/*")) {
            found.put(part.getContentType().split(";")[0].trim().toLowerCase(), (String) part.getContent());
        }
        return found;
    }

    private static int alternatives(Part part) throws Exception {
        if (!part.isMimeType("multipart/*")) {
            return 0;
        }
        Multipart multipart = (Multipart) part.getContent();
        int found = part.isMimeType("multipart/alternative") ? 1 : 0;
        for (int i = 0; i < multipart.getCount(); i++) {
            found += alternatives(multipart.getBodyPart(i));
        }
        return found;
    }

    private static String checkoutId() {
        return "ckt_" + Ids.randomHex(16);
    }

    private static String recipient() {
        return "payer-" + UUID.randomUUID() + "@example.com";
    }
}
