package io.tender.api;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §12, log forging: CR/LF in a field meant as one line (a customer's or account's name, a payment request's
 * or webhook endpoint's description) is refused 400 naming the field, with nothing made; and whatever text reaches a
 * log line, the service's logging writes its line breaks escaped, so no line can be forged.
 */
@ExtendWith(OutputCaptureExtension.class)
class LogForgingIT extends ApiIntegrationTest {

    private static final String FORGED = "Grace\\r\\n2026-11-28T00:00:00.000Z  INFO [] 1 --- [tender] forged : paid";

    @Test
    void aLineBreakInAOneLineFieldIsRefusedNamingTheFieldAndNothingIsMade() {
        Merchant merchant = merchants.create();
        var customer = merchant.test().post("/billing/customers", "{\"name\":\"" + FORGED
                + "\",\"email\":\"grace@example.com\",\"external_reference\":\"c-1\"}").send();
        assertThat(assertBadRequest(customer, "name").toString()).contains(JsonInput.ONE_LINE);
        assertThat(merchant.test().get("/billing/customers").send().json().get("data")).isEmpty();

        var request = merchant.test().post("/collect/payment_requests",
                "{\"amount\":1000,\"currency\":\"ZAR\",\"description\":\"Order 1\\nSecond line\"}").send();
        assertBadRequest(request, "description");
        assertThat(merchant.test().get("/collect/payment_requests").send().json().get("data")).isEmpty();

        var endpoint = merchant.test().post("/webhook_endpoints", "{\"url\":\"https://example.com/hook\","
                + "\"enabled_events\":[\"*\"],\"description\":\"a\\u2028b\"}").send();
        assertBadRequest(endpoint, "description");
    }

    @Test
    void aMessageCarryingLineBreaksIsWrittenAsOneLine(CapturedOutput output) {
        LoggerFactory.getLogger(LogForgingIT.class).info("customer name {}", "Grace\r\nFORGED-LINE ERROR paid");
        assertThat(output.getOut()).contains("customer name Grace\\r\\nFORGED-LINE ERROR paid");
        assertThat(output.getOut().lines()).noneMatch(line -> line.startsWith("FORGED-LINE"));
    }
}
