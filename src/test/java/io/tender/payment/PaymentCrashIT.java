package io.tender.payment;

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
 * The packaged service, in live mode against a slow processor simulator, is killed with SIGKILL while concurrent
 * authorizations (checkout attempts) and keyed captures are in flight, then started again on the same data.
 * Afterwards every payment is final, every capture key replays its final answer, our amounts agree with the
 * processor's ledger, and no authorization was captured beyond what it authorized or under one key twice.
 */
class PaymentCrashIT {

    private static final String KEY = "sk_live_" + "p4y0c".repeat(5);

    private record Capture(String key, String paymentId, String body) {
    }

    @Test
    void aServiceKilledMidPaymentFinishesEveryPaymentConsistentlyWithTheProcessor() throws Exception {
        Path root = Files.createTempDirectory("tender-payment-crash-");
        int simulatorPort = ServiceProcess.freePort();
        int servicePort = ServiceProcess.freePort();
        Map<String, String> environment = LiveCrashes.environment(root, KEY, simulatorPort);
        String[] arguments = LiveCrashes.ARGUMENTS;

        try (var simulator = ServiceProcess.simulator("simulator", simulatorPort, Map.of(
                     "TENDER_DATA_DIR", root.resolve("simulator").toString(), "SIMULATOR_DELAY", "PT0.3S")).start();
             var service = ServiceProcess.service("service", servicePort, environment, arguments).start()) {
            Api api = new Api(service.baseUrl(), KEY);

            // Authorizations made before the crash, to be captured during it.
            List<String> authorized = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                JsonNode attempt = LiveCrashes.pay(api, LiveCrashes.session(api, 10000, true), "4242424242424242");
                assertThat(attempt.get("status").stringValue()).isEqualTo("succeeded");
                authorized.add(attempt.get("payment_id").stringValue());
            }
            List<Capture> captures = new ArrayList<>();
            for (String id : authorized) {
                captures.add(new Capture("cap-" + id + "-1", id, "{\"amount\":3000}"));
                captures.add(new Capture("cap-" + id + "-2", id, "{\"amount\":4000}"));
            }
            List<String> checkouts = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                checkouts.add(LiveCrashes.session(api, 5000 + i, i % 2 == 0));
            }

            Instant killedAt;
            try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < checkouts.size(); i++) {
                    String ckt = checkouts.get(i);
                    String card = switch (i % 4) {
                        case 0, 1 -> "4242424242424242";
                        case 2 -> "5555555555554444";
                        default -> "4000000000000002";
                    };
                    pool.submit(() -> LiveCrashes.quietly(() -> LiveCrashes.pay(api, ckt, card)));
                }
                // Each payment's two captures one after the other (a capture while another is pending is refused).
                for (int i = 0; i < captures.size(); i += 2) {
                    List<Capture> pair = captures.subList(i, i + 2);
                    pool.submit(() -> LiveCrashes.quietly(() -> pair.forEach(capture -> api.post("/collect/payments/"
                            + capture.paymentId() + "/captures", capture.body()).idempotencyKey(capture.key()).send())));
                }
                Thread.sleep(900);
                service.kill();
                killedAt = Instant.now();
                pool.shutdownNow();
                pool.awaitTermination(30, TimeUnit.SECONDS);
            }

            try (var restarted = ServiceProcess.service("service-restarted", servicePort, environment, arguments).start()) {
                // Every capture key ends in one final answer and replays it byte for byte.
                Map<String, byte[]> answers = new HashMap<>();
                for (Capture capture : captures) {
                    answers.put(capture.key(), awaitFinal(api, capture));
                }
                for (Capture capture : captures) {
                    var replay = api.post("/collect/payments/" + capture.paymentId() + "/captures", capture.body())
                            .idempotencyKey(capture.key()).send();
                    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
                    assertThat(replay.bytes()).isEqualTo(answers.get(capture.key()));
                }

                // Every payment is final: the crash left nothing pending that the restarted service did not finish.
                List<JsonNode> payments = new ArrayList<>();
                Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
                while (true) {
                    payments.clear();
                    api.get("/collect/payments?limit=100").send().json().get("data").forEach(payments::add);
                    if (payments.stream().noneMatch(p -> p.get("status").stringValue().equals("pending"))
                            || Instant.now().isAfter(deadline)) {
                        break;
                    }
                    Thread.sleep(500);
                }
                assertThat(payments).allSatisfy(p -> assertThat(p.get("status").stringValue()).isIn("succeeded", "failed"));
                assertThat(payments).filteredOn(p -> Instant.parse(p.get("created_at").stringValue()).isBefore(killedAt)
                                && Instant.parse(p.get("updated_at").stringValue()).isAfter(killedAt))
                        .as("payments begun before the kill and finished after it").isNotEmpty();

                // Our amounts agree with the processor's ledger; nothing was captured twice.
                JsonNode ledger = new Api(simulator.baseUrl(), null).get("/_ledger").send().json()
                        .get("processor_operations");
                Map<String, JsonNode> byKey = new HashMap<>();
                ledger.forEach(e -> byKey.put(e.get("operation_key").stringValue(), e));
                for (JsonNode p : payments) {
                    String id = p.get("id").stringValue();
                    JsonNode authorization = byKey.get(id + ":authorize");
                    boolean approved = authorization != null && authorization.get("result").stringValue().equals("approved");
                    assertThat(p.get("status").stringValue()).as("status of %s", id).isEqualTo(approved ? "succeeded" : "failed");
                    long capturedAtProcessor = 0;
                    for (JsonNode e : ledger) {
                        if (e.get("kind").stringValue().equals("capture") && e.get("result").stringValue().equals("approved")
                                && (id + ":authorize").equals(e.path("authorization_key").stringValue(null))) {
                            capturedAtProcessor += e.get("amount").longValue();
                        }
                    }
                    if (p.get("capture_method").stringValue().equals("manual")) {
                        assertThat(p.get("paid_amount").longValue()).as("paid_amount of %s", id).isEqualTo(capturedAtProcessor);
                        assertThat(capturedAtProcessor).isLessThanOrEqualTo(p.get("authorized_amount").longValue());
                    } else if (approved) {
                        assertThat(p.get("paid_amount").longValue()).isEqualTo(p.get("amount").longValue());
                    }
                }
                for (String id : authorized) {
                    assertThat(api.get("/collect/payments/" + id).send().json().get("paid_amount").longValue())
                            .as("both captures of %s, each once", id).isEqualTo(7000);
                }
            }
        }
    }



    private static byte[] awaitFinal(Api api, Capture capture) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
        Api.Response last = null;
        while (Instant.now().isBefore(deadline)) {
            last = api.post("/collect/payments/" + capture.paymentId() + "/captures", capture.body())
                    .idempotencyKey(capture.key()).send();
            if (last.status() == 200) {
                return last.bytes();
            }
            assertThat(last.status()).as(last.toString()).isIn(409, 504);
            Thread.sleep(300);
        }
        throw new AssertionError("no final answer for " + capture.key() + ": " + last);
    }

}
