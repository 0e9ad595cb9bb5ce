package io.tender.simulator;

import io.tender.support.Api;
import io.tender.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The packaged provider simulator's {@code POST /processor/refund} (docs/processor-protocol.md) over the sandbox
 * processor: each sandbox refund amount answers with its protocol status, the status query finishes what was pending
 * or lost, and {@code /_ledger} lists the refunds.
 */
class SimulatorRefundsIT {

    private static final String SALE = "pay_0193simulatorrefunds:authorize";

    @Test
    void refundsASaleWithTheProtocolsAnswerForEachSandboxAmount() throws Exception {
        Path root = Files.createTempDirectory("tender-simulator-refunds-");
        int port = ServiceProcess.freePort();
        try (var simulator = ServiceProcess.simulator("simulator-refunds", port, Map.of(
                "TENDER_DATA_DIR", root.toString(),
                "TENDER_PROCESSOR_SANDBOX_REFUND_DELAY", "PT1S")).start()) {
            Api processor = new Api(simulator.baseUrl() + "/processor", null);
            var sale = processor.post("/authorize", """
                    {"operation_key":"%s","amount":20000,"currency":"ZAR","capture":true,"method":{"type":"card",
                     "card":{"number":"4242424242424242","exp_month":12,"exp_year":2040,"security_code":"123"}}}"""
                    .formatted(SALE)).send();
            assertThat(sale.status()).as(sale.text()).isEqualTo(200);

            var declined = refund(processor, "rfd_1:refund", 1051);
            assertThat(declined.status()).isEqualTo(422);
            assertThat(declined.json().get("error_code").stringValue()).isEqualTo("refund_declined");
            assertThat(declined.json().get("decline_code").stringValue()).isEqualTo("declined");

            var pending = refund(processor, "rfd_2:refund", 2052);
            assertThat(pending.status()).isEqualTo(202);
            assertThat(pending.json().get("result").stringValue()).isEqualTo("pending");
            assertThat(status(processor, "rfd_2:refund").get("result").stringValue()).isEqualTo("pending");
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() ->
                    status(processor, "rfd_2:refund").get("result").stringValue().equals("approved"));

            assertThat(refund(processor, "rfd_3:refund", 3053).status()).isEqualTo(504);
            assertThat(status(processor, "rfd_3:refund").get("amount").longValue()).isEqualTo(3053);

            assertThat(refund(processor, "rfd_4:refund", 14896).status()).isEqualTo(422);
            assertThat(refund(processor, "rfd_5:refund", 14895).status()).isEqualTo(200);
            assertThat(processor.get("/operations/rfd_6:refund").send().status()).isEqualTo(404);

            JsonNode ledger = new Api(simulator.baseUrl(), null).get("/_ledger").send().json();
            assertThat(ledger.get("processor_operations").valueStream()
                    .filter(row -> row.get("kind").stringValue().equals("refund"))
                    .map(row -> row.get("operation_key").stringValue() + " " + row.get("result").stringValue()))
                    .containsExactly("rfd_1:refund declined", "rfd_2:refund approved", "rfd_3:refund approved",
                            "rfd_4:refund declined", "rfd_5:refund approved");
        }
    }

    private static Api.Response refund(Api processor, String key, long amount) {
        return processor.post("/refund", """
                {"operation_key":"%s","authorization_key":"%s","amount":%d,"currency":"ZAR"}"""
                .formatted(key, SALE, amount)).idempotencyKey(key).send();
    }

    private static JsonNode status(Api processor, String key) {
        var answer = processor.get("/operations/" + key).send();
        assertThat(answer.status()).as(answer.text()).isEqualTo(200);
        return answer.json();
    }
}
