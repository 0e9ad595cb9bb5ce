package io.tender.refund;

import io.tender.checkout.Checkout;
import io.tender.payment.LiveCrashes;
import io.tender.payment.Collect;

import io.tender.support.Api;
import io.tender.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged service, in live mode against a slow processor simulator, is killed with SIGKILL while keyed refunds
 * are between their processor call and its record, then started again on the same data. Afterwards every refund is
 * final, every refund key replays its final answer, and the processor's ledger holds exactly one refund for each
 * refund that succeeded and none for the others: a refund whose outcome the crash lost was asked after, never resent.
 */
class RefundCrashIT {

    private static final String KEY = "sk_live_" + "r3fnd".repeat(5);

    private record Refund(String key, String paymentId, String body) {
    }

    @Test
    void aServiceKilledMidRefundFinishesEveryRefundOnceAtTheProcessor() throws Exception {
        Path root = Files.createTempDirectory("tender-refund-crash-");
        int simulatorPort = ServiceProcess.freePort();
        int servicePort = ServiceProcess.freePort();
        Map<String, String> environment = LiveCrashes.environment(root, KEY, simulatorPort);
        String[] arguments = LiveCrashes.ARGUMENTS;

        try (var simulator = ServiceProcess.simulator("simulator", simulatorPort, Map.of(
                     "TENDER_DATA_DIR", root.resolve("simulator").toString(), "SIMULATOR_DELAY", "PT0.4S")).start();
             var service = ServiceProcess.service("service", servicePort, environment, arguments).start()) {
            Api api = new Api(service.baseUrl(), KEY);

            List<String> paid = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                JsonNode attempt = LiveCrashes.pay(api, LiveCrashes.session(api, 10000, false), "4242424242424242");
                assertThat(attempt.get("status").stringValue()).isEqualTo("succeeded");
                paid.add(attempt.get("payment_id").stringValue());
            }
            List<Refund> refunds = new ArrayList<>();
            for (String id : paid) {
                refunds.add(new Refund("rf-" + id + "-1", id, "{\"amount\":3000}"));
                refunds.add(new Refund("rf-" + id + "-2", id, "{\"amount\":4000}"));
            }

            Instant killedAt;
            try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (Refund refund : refunds) {
                    pool.submit(() -> LiveCrashes.quietly(() -> send(api, refund)));
                }
                Thread.sleep(700);
                service.kill();
                killedAt = Instant.now();
                pool.shutdownNow();
                pool.awaitTermination(30, TimeUnit.SECONDS);
            }

            try (var restarted = ServiceProcess.service("service-restarted", servicePort, environment, arguments).start()) {
                // Every refund key ends in one answer and replays it byte for byte.
                Map<String, byte[]> answers = new HashMap<>();
                for (Refund refund : refunds) {
                    answers.put(refund.key(), awaitAnswer(api, refund));
                }
                for (Refund refund : refunds) {
                    var replay = send(api, refund);
                    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
                    assertThat(replay.bytes()).isEqualTo(answers.get(refund.key()));
                }

                // Every refund is final: none is left pending.
                List<JsonNode> listed = new ArrayList<>();
                Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
                while (true) {
                    listed.clear();
                    api.get("/collect/refunds?limit=100").send().json().get("data").forEach(listed::add);
                    if (listed.stream().noneMatch(r -> r.get("status").stringValue().equals("pending"))
                            || Instant.now().isAfter(deadline)) {
                        break;
                    }
                    Thread.sleep(500);
                }
                assertThat(listed).hasSize(refunds.size());
                assertThat(listed).allSatisfy(r -> assertThat(r.get("status").stringValue()).isEqualTo("succeeded"));
                assertThat(listed).filteredOn(r -> Instant.parse(r.get("created_at").stringValue()).isBefore(killedAt)
                                && Instant.parse(r.get("updated_at").stringValue()).isAfter(killedAt))
                        .as("refunds begun before the kill and finished after it").isNotEmpty();

                // The processor refunded each refund once, and our amounts agree with its ledger.
                JsonNode ledger = new Api(simulator.baseUrl(), null).get("/_ledger").send().json()
                        .get("processor_operations");
                for (JsonNode r : listed) {
                    String id = r.get("id").stringValue();
                    long approvedAtProcessor = 0;
                    int calls = 0;
                    for (JsonNode e : ledger) {
                        if (e.get("kind").stringValue().equals("refund")
                                && e.get("operation_key").stringValue().startsWith(id + ":refund")
                                && e.get("result").stringValue().equals("approved")) {
                            approvedAtProcessor += e.get("amount").longValue();
                            calls++;
                        }
                    }
                    assertThat(calls).as("refunds of %s at the processor", id).isEqualTo(1);
                    assertThat(approvedAtProcessor).isEqualTo(r.get("amount").longValue());
                }
                for (String id : paid) {
                    assertThat(api.get("/collect/payments/" + id).send().json().get("refunded_amount").longValue())
                            .as("both refunds of %s, each once", id).isEqualTo(7000);
                }
            }
        }
    }

    private static Api.Response send(Api api, Refund refund) {
        return api.post("/collect/payments/" + refund.paymentId() + "/refunds", refund.body())
                .idempotencyKey(refund.key()).send();
    }



    /** The refund key's stored answer: 201 once the request or the recovery job completed it (409 while it runs). */
    private static byte[] awaitAnswer(Api api, Refund refund) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
        Api.Response last = null;
        while (Instant.now().isBefore(deadline)) {
            last = send(api, refund);
            if (last.status() == 201) {
                return last.bytes();
            }
            assertThat(last.status()).as(last.toString()).isEqualTo(409);
            Thread.sleep(300);
        }
        throw new AssertionError("no answer for " + refund.key() + ": " + last);
    }

}
