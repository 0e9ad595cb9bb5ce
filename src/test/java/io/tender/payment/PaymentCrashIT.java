package io.tender.payment;

import io.tender.payment.LiveCrashes.KeyedCall;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged service, in live mode against a slow processor simulator, is killed with SIGKILL while concurrent
 * authorizations (checkout attempts) and keyed captures are in flight, then started again on the same data.
 * Afterwards every payment is final, every capture key replays its final answer, our amounts agree with the
 * processor's ledger, and no authorization was captured beyond what it authorized or under one key twice.
 */
class PaymentCrashIT {

    private static final String KEY = "sk_live_" + "p4y0c".repeat(5);

    @Test
    void aServiceKilledMidPaymentFinishesEveryPaymentConsistentlyWithTheProcessor() throws Exception {
        try (var stage = LiveCrashes.Stage.start("payment", KEY, Duration.ofMillis(300));
             var service = stage.service("service")) {
            var api = stage.api();
            // Authorizations made before the crash, to be captured during it.
            List<String> authorized = LiveCrashes.paid(api, 6, true);
            List<KeyedCall> captures = new ArrayList<>();
            for (String id : authorized) {
                captures.add(new KeyedCall("cap-" + id + "-1", "/collect/payments/" + id + "/captures", "{\"amount\":3000}"));
                captures.add(new KeyedCall("cap-" + id + "-2", "/collect/payments/" + id + "/captures", "{\"amount\":4000}"));
            }
            List<Runnable> calls = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                String ckt = LiveCrashes.session(api, 5000 + i, i % 2 == 0);
                String card = switch (i % 4) {
                    case 0, 1 -> "4242424242424242";
                    case 2 -> "5555555555554444";
                    default -> "4000000000000002";
                };
                calls.add(() -> LiveCrashes.pay(api, ckt, card));
            }
            // Each payment's two captures one after the other (a capture while another is pending is refused).
            for (int i = 0; i < captures.size(); i += 2) {
                List<KeyedCall> pair = captures.subList(i, i + 2);
                calls.add(() -> pair.forEach(capture -> capture.send(api)));
            }

            Instant killedAt = LiveCrashes.killDuring(service, Duration.ofMillis(900), calls);

            try (var restarted = stage.service("service-restarted")) {
                // Every capture key ends in one final answer (200; 409 or 504 meanwhile) and replays it byte for byte.
                LiveCrashes.finalAnswers(api, captures, 200, 409, 504);

                // Every payment is final: the crash left nothing pending that the restarted service did not finish.
                List<JsonNode> payments = LiveCrashes.noneLeftPending(api, "/collect/payments?limit=100");
                assertThat(payments).allSatisfy(p -> assertThat(p.get("status").stringValue()).isIn("succeeded", "failed"));
                assertThat(LiveCrashes.spanning(payments, killedAt))
                        .as("payments begun before the kill and finished after it").isNotEmpty();

                // Our amounts agree with the processor's ledger; nothing was captured twice.
                JsonNode ledger = stage.ledger();
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
}
