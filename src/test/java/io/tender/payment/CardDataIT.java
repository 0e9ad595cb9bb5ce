package io.tender.payment;

import io.tender.checkout.Checkout;
import io.tender.api.ApiException;
import io.tender.processor.sandbox.SandboxProcessor;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §6 (PCI DSS 3.3/3.4): card numbers and security codes never reach a log line, the database, an event or
 * an API answer. Pays with every sandbox card (and a refused one) through the checkout's application API, captures
 * and voids, then searches the captured output, every row of every table and every answer for each number and code.
 */
@ExtendWith(OutputCaptureExtension.class)
class CardDataIT extends ApiIntegrationTest {

    /** Each sandbox card with a security code of its own, 4 digits so that a search for it means something. */
    private static final Map<String, String> CARDS = new LinkedHashMap<>();

    static {
        CARDS.put("4242424242424242", "7319");
        CARDS.put("5555555555554444", "8426");
        CARDS.put("4000000000000002", "9537");
        CARDS.put("4000000000009995", "6148");
        CARDS.put("4000000000003220", "5271");
        CARDS.put("4000000000000119", "3682");
        CARDS.put("4242424242424241", "2793"); // fails Luhn: refused before sending
    }

    @Autowired
    private Checkout checkout;

    @Test
    void cardNumbersAndSecurityCodesAreNowhere(CapturedOutput output) {
        var merchant = merchants.create();
        Api api = merchant.test();
        Collect collect = new Collect(api, checkout);
        List<String> answers = new ArrayList<>();
        CARDS.forEach((number, code) -> {
            JsonNode session = collect.manualSession(4000);
            String ckt = session.get("checkout_session_id").stringValue();
            try {
                Checkout.Attempt attempt = checkout.payByCard(ckt, number.substring(0, 4) + " " + number.substring(4),
                        12, Collect.EXP_YEAR, code);
                if ("three_d_secure".equals(attempt.action())) {
                    attempt = checkout.decideSandbox(ckt, SandboxProcessor.Decision.APPROVE).orElseThrow();
                }
                answers.add(attempt.toString());
                String path = "/collect/payments/" + attempt.paymentId();
                if (attempt.status().equals("succeeded")) {
                    answers.add(api.post(path + "/captures", "{\"amount\":1000}").send().text());
                    answers.add(api.post(path + "/voids", "{}").send().text());
                }
                answers.add(api.get(path).send().text());
            } catch (ApiException refused) {
                answers.add(refused.getMessage() + refused.errors());
            }
            answers.add(api.get("/collect/payment_sessions/" + session.get("id").stringValue()).send().text());
            answers.add(String.valueOf(checkout.load(ckt).orElseThrow()));
        });
        // A verification saves the card as a payment method: its row and answer are searched too.
        JsonNode verification = collect.session(0);
        Checkout.Attempt verified = checkout.payByCard(verification.get("checkout_session_id").stringValue(),
                "4242 4242 4242 4242", 12, Collect.EXP_YEAR, CARDS.get("4242424242424242"));
        answers.add(verified.toString());
        String methodId = collect.refreshed(verification).get("payment_method_id").stringValue();
        answers.add(api.get("/collect/payment_methods/" + methodId).send().text());
        answers.add(api.get("/collect/payments?limit=100").send().text());

        List<String> tables = jdbc.sql("select table_name from information_schema.tables where table_schema = 'public'"
                + " and table_type = 'BASE TABLE'").query(String.class).list();
        assertThat(tables).contains("payments", "payment_sessions", "payment_methods", "outbox",
                "sandbox_processor_operations");
        List<String> rows = new ArrayList<>();
        for (String table : tables) {
            rows.addAll(jdbc.sql("select t::text from \"" + table + "\" t").query(String.class).list());
        }
        // The search finds what is there: the kept card fields are in the rows (row text doubles JSON's quotes).
        assertThat(String.join("\n", rows)).contains("\"\"last4\"\": \"\"4242\"\"");
        Pattern numberField = Pattern.compile("(?<![a-z_])number\"");

        // A 4-digit code can turn up by chance in other tests' rows of the shared database (amounts, fuzzed values),
        // so codes are searched in this test's own rows: its merchant's, and those naming its payments and sessions.
        java.util.Set<String> ids = new java.util.HashSet<>(List.of(merchant.id()));
        Pattern.compile("(?:pay|ps|ckt|pm)_[0-9a-f]+").matcher(String.join("\n", answers)).results()
                .forEach(m -> ids.add(m.group()));
        String ownRows = String.join("\n", rows.stream().filter(r -> ids.stream().anyMatch(r::contains)).toList());
        assertThat(ownRows).contains("\"\"last4\"\": \"\"4242\"\"");

        CARDS.forEach((number, code) -> {
            for (String text : List.of(output.getAll(), String.join("\n", answers), String.join("\n", rows))) {
                assertThat(text).doesNotContain(number).doesNotContain(number.substring(0, 4) + " " + number.substring(4));
                assertThat(text).doesNotContain("security_code");
                assertThat(numberField.matcher(text).find()).as("a card number field").isFalse();
            }
            Pattern codeAlone = Pattern.compile("(?<![0-9a-f])" + code + "(?![0-9a-f])");
            for (String text : List.of(output.getAll(), String.join("\n", answers), ownRows)) {
                assertThat(codeAlone.matcher(text).find()).as("security code " + code).isFalse();
            }
        });
    }
}
