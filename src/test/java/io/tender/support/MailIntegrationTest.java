package io.tender.support;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.internet.MimeMessage;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The service with an SMTP server configured ({@code spring.mail.host}): an in-process GreenMail server on a fixed
 * free port of 127.0.0.1, so a test can stop it and start it again where the service expects it. Payment-link
 * notifications are dispatched every 200 ms and retried quickly: 5 attempts, 0.2 s after the first failure, doubling
 * to at most 1 s.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
        // Several contexts and processes run at once: none may take the default management port.
        "management.server.port=0",
        "tender.bootstrap-keys=",
        "tender.webhooks.allow-private-targets=true",
        "tender.rate-limits.failed-authentications.per-second=1000000",
        "tender.rate-limits.failed-authentications.burst=1000000",
        // Every test opens public pages from 127.0.0.1; their limits (per address, per address and id) are proven in
        // RateLimitsIT.
        "tender.rate-limits.page-views.per-minute=1000000",
        "tender.rate-limits.page-views.burst=1000000",
        "tender.rate-limits.page-views-per-id.per-minute=1000000",
        "tender.rate-limits.page-views-per-id.burst=1000000",
        "spring.mail.host=127.0.0.1",
        "spring.mail.properties[mail.smtp.connectiontimeout]=2000",
        "spring.mail.properties[mail.smtp.timeout]=2000",
        "spring.mail.properties[mail.smtp.writetimeout]=2000",
        "tender.notifications.mail-from=" + MailIntegrationTest.MAIL_FROM,
        "tender.notifications.interval=PT0.2S",
        "tender.notifications.max-attempts=5",
        "tender.notifications.retry-base=PT0.2S",
        "tender.notifications.retry-max=PT1S",
})
public abstract class MailIntegrationTest extends IntegrationTestSupport {

    public static final String MAIL_FROM = "Tender Payments <payments@tender.test>";

    /** The operator's SMTP server, as the service sees it. */
    private static final int SMTP_PORT = freePort();
    protected static final GreenMail SMTP = new GreenMail(new ServerSetup(SMTP_PORT, "127.0.0.1", "smtp"));
    private static final Path DATA_DIR = temporaryDataDirectory("mail");

    static {
        SMTP.start();
        Runtime.getRuntime().addShutdownHook(new Thread(SMTP::stop));
    }

    @DynamicPropertySource
    static void mailServer(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
        registry.add("spring.mail.port", () -> SMTP_PORT);
    }

    /** Every message the SMTP server received for this address so far. */
    protected static List<MimeMessage> receivedBy(String address) {
        return Arrays.stream(SMTP.getReceivedMessages()).filter(m -> {
            try {
                return Arrays.stream(m.getAllRecipients()).anyMatch(r -> r.toString().contains(address));
            } catch (jakarta.mail.MessagingException e) {
                return false;
            }
        }).toList();
    }

    private static int freePort() {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
