package io.tender.paymentrequest;

import io.tender.checkout.Checkout;
import io.tender.support.Api;
import io.tender.support.MailIntegrationTest;
import io.tender.support.Merchants;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.internet.MimeMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code notify} of decisions §7 against a real SMTP server (GreenMail): the link arrives by email, and the link in the
 * mail opens the checkout for that request, where it is paid; SMS in test mode goes to the log without the link's
 * secret; live mode has no SMS gateway (422). No log line carries the link.
 */
@ExtendWith(OutputCaptureExtension.class)
class PaymentRequestNotifyIT extends MailIntegrationTest {

    private static final Pattern LINK = Pattern.compile("https?://\\S+/checkout/ckt_[a-f0-9]{32}");

    @Autowired
    private Checkout checkout;

    private Merchants.Merchant merchant;
    private Api api;
    private Requests requests;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        api = merchant.test();
        requests = new Requests(api, checkout);
    }

    @Test
    void theEmailedLinkOpensTheCheckoutForTheRequestWhereItIsPaid(CapturedOutput output) throws Exception {
        String email = "payer-" + UUID.randomUUID() + "@example.com";
        JsonNode request = requests.create("\"amount\":15000,\"currency\":\"ZAR\",\"description\":\"Invoice 77\","
                + "\"customer\":{\"name\":\"Grace Hopper\",\"email\":\"" + email + "\"},\"notify\":{\"email\":true}");
        assertThat(request.get("notify").get("email").booleanValue()).isTrue();

        await().atMost(Duration.ofSeconds(15)).until(() -> !receivedBy(email).isEmpty());
        List<MimeMessage> received = receivedBy(email);
        assertThat(received).hasSize(1);
        MimeMessage mail = received.getFirst();
        assertThat(mail.getSubject()).contains(merchant.name(), "ZAR 150.00");
        String text = plainText(mail);
        assertThat(text).contains(merchant.name(), "ZAR 150.00", "Invoice 77");
        Matcher link = LINK.matcher(text);
        assertThat(link.find()).as(text).isTrue();
        assertThat(link.group()).isEqualTo(request.get("link").get("url").stringValue());

        var page = anonymous().get(link.group().substring(base().length())).send();
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.text()).contains("Invoice 77", "Pay ZAR 150.00");
        requests.payByCard(request, "4242424242424242");
        assertThat(requests.get(request).get("status").stringValue()).isEqualTo("paid");
        assertThat(output.getAll()).doesNotContain(Requests.checkoutId(request));
    }

    @Test
    void smsGoesToTheLogInTestModeWithoutTheLinksSecretAndLiveModeHasNoGateway(CapturedOutput output) {
        JsonNode request = requests.create("\"amount\":500,\"currency\":\"ZAR\","
                + "\"customer\":{\"phone\":\"+27821239876\"},\"notify\":{\"sms\":true}");
        String checkoutId = Requests.checkoutId(request);
        await().atMost(Duration.ofSeconds(15)).until(() -> output.getAll().contains("SMS (test mode, not sent)"));
        assertThat(output.getAll()).doesNotContain(checkoutId).doesNotContain("+27821239876");

        var live = merchant.live().post("/collect/payment_requests", "{\"amount\":500,\"currency\":\"ZAR\","
                + "\"customer\":{\"phone\":\"+27821239876\"},\"notify\":{\"sms\":true}}").send();
        JsonNode problem = assertProblem(live, 422, "operation_not_allowed");
        assertThat(problem.get("detail").stringValue()).contains("notify.sms");
        assertThat(jdbc.sql("select count(*) from payment_requests where merchant_id = ? and mode = 'live'")
                .param(merchant.id()).query(Integer.class).single()).isZero();
    }

    /** The mail's text/plain part, wherever it sits. */
    private static String plainText(Part part) throws Exception {
        if (part.isMimeType("text/plain")) {
            return (String) part.getContent();
        }
        if (part.getContent() instanceof Multipart children) {
            for (int i = 0; i < children.getCount(); i++) {
                String found = plainText(children.getBodyPart(i));
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
