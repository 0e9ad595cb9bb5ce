package io.tender.api;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.util.List;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §12, §13, log forging: CR/LF in a field meant as one line (a customer's or account's name, a payment
 * request's or webhook endpoint's description), at the top level or nested (a payment request's {@code customer.name},
 * an account's or bill's nested customer, a page's custom fields, a session's options), is refused 400 naming the
 * field's path, with nothing made; and whatever text reaches a log line, the service's logging writes its line breaks
 * escaped, so no line can be forged.
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
    void aLineBreakInANestedOneLineFieldIsRefusedNamingItsPathAndNothingIsMade() {
        // Decisions §13: wherever a one-line field is, nested objects and arrays included.
        Merchant merchant = merchants.create();
        Api api = merchant.test();

        var request = api.post("/collect/payment_requests", "{\"amount\":1000,\"currency\":\"ZAR\","
                + "\"customer\":{\"name\":\"" + FORGED + "\",\"email\":\"grace@example.com\"}}").send();
        assertThat(assertBadRequest(request, "customer.name").toString()).contains(JsonInput.ONE_LINE);

        var account = api.post("/billing/accounts", "{\"customer\":{\"external_reference\":\"c-1\",\"name\":\""
                + FORGED + "\",\"email\":\"grace@example.com\"},\"external_reference\":\"a-1\",\"name\":\"Rates\"}").send();
        assertBadRequest(account, "customer.name");

        String bill = "{\"account\":{\"customer\":{\"external_reference\":\"c-2\",\"name\":\"%s\","
                + "\"email\":\"grace@example.com\"},\"external_reference\":\"a-2\",\"name\":\"%s\"},"
                + "\"external_reference\":\"INV-1\",\"currency\":\"ZAR\",\"amount_due\":4200,\"due_date\":\"2030-01-31\"}";
        assertBadRequest(api.post("/billing/bills", bill.formatted(FORGED, "Rates")).send(), "account.customer.name");
        assertBadRequest(api.post("/billing/bills", bill.formatted("Grace", "Rates\\u2028Water")).send(), "account.name");

        var page = api.post("/collect/payment_pages", "{\"title\":\"Tips\\r\\nForged\",\"currency\":\"ZAR\","
                + "\"amount\":1000,\"custom_fields\":[{\"key\":\"table\",\"label\":\"Table\\nnumber\",\"type\":\"text\","
                + "\"default_value\":\"1\\r2\"},{\"key\":\"size\",\"label\":\"Size\",\"type\":\"dropdown\","
                + "\"options\":[\"S\",\"M\\nL\"]}]}").send();
        assertBadRequest(page, "title", "custom_fields[0].label", "custom_fields[0].default_value",
                "custom_fields[1].options[1]");

        var session = api.post("/collect/payment_sessions", "{\"amount\":1000,\"currency\":\"ZAR\","
                + "\"options\":{\"checkout_options\":{\"return_url\":\"https://example.com/done\\r\\nX: y\"}}}").send();
        assertBadRequest(session, "options.checkout_options.return_url");

        for (String list : List.of("/collect/payment_requests", "/billing/customers", "/billing/accounts",
                "/billing/bills", "/collect/payment_pages")) {
            assertThat(api.get(list).send().json().get("data")).as(list).isEmpty();
        }
        assertThat(jdbc.sql("select count(*) from payment_sessions where merchant_id = ?").param(merchant.id())
                .query(Long.class).single()).as("payment sessions (no list route)").isZero();

        // A page's description is the one field meant to hold several lines.
        var described = api.post("/collect/payment_pages", "{\"title\":\"Tips\",\"currency\":\"ZAR\",\"amount\":1000,"
                + "\"description\":\"For the team.\\nThank you!\"}").send();
        assertThat(described.status()).as(described.toString()).isEqualTo(201);
        assertThat(described.json().get("description").stringValue()).isEqualTo("For the team.\nThank you!");
    }

    @Test
    void aMessageCarryingLineBreaksIsWrittenAsOneLine(CapturedOutput output) {
        LoggerFactory.getLogger(LogForgingIT.class).info("customer name {}", "Grace\r\nFORGED-LINE ERROR paid");
        assertThat(output.getOut()).contains("customer name Grace\\r\\nFORGED-LINE ERROR paid");
        assertThat(output.getOut().lines()).noneMatch(line -> line.startsWith("FORGED-LINE"));
    }
}
