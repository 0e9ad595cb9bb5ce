package io.tender.refund;

import io.tender.payment.LiveCrashes;
import io.tender.payment.LiveCrashes.KeyedCall;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged service, in live mode against a slow processor simulator, is killed with SIGKILL while keyed refunds
 * are between their processor call and its record, then started again on the same data. Afterwards every refund is
 * final, every refund key replays its final answer, and the processor's ledger holds exactly one refund for each
 * refund that succeeded and none for the others: a refund whose outcome the crash lost was asked after, never resent.
 */
class RefundCrashIT {

    private static final String KEY = "sk_live_" + "r3fnd".repeat(5);

    @Test
    void aServiceKilledMidRefundFinishesEveryRefundOnceAtTheProcessor() throws Exception {
        try (var stage = LiveCrashes.Stage.start("refund", KEY, Duration.ofMillis(400));
             var service = stage.service("service")) {
            var api = stage.api();
            List<String> paid = LiveCrashes.paid(api, 8, false);
            List<KeyedCall> refunds = new ArrayList<>();
            for (String id : paid) {
                refunds.add(new KeyedCall("rf-" + id + "-1", "/collect/payments/" + id + "/refunds", "{\"amount\":3000}"));
                refunds.add(new KeyedCall("rf-" + id + "-2", "/collect/payments/" + id + "/refunds", "{\"amount\":4000}"));
            }

            Instant killedAt = LiveCrashes.killDuring(service, Duration.ofMillis(700),
                    refunds.stream().<Runnable>map(refund -> () -> refund.send(api)).toList());

            try (var restarted = stage.service("service-restarted")) {
                // Every refund key ends in one answer (201; 409 while it runs) and replays it byte for byte.
                LiveCrashes.finalAnswers(api, refunds, 201, 409);

                // Every refund is final: none is left pending.
                List<JsonNode> listed = LiveCrashes.noneLeftPending(api, "/collect/refunds?limit=100");
                assertThat(listed).hasSize(refunds.size());
                assertThat(listed).allSatisfy(r -> assertThat(r.get("status").stringValue()).isEqualTo("succeeded"));
                assertThat(LiveCrashes.spanning(listed, killedAt))
                        .as("refunds begun before the kill and finished after it").isNotEmpty();

                // The processor refunded each refund once, and our amounts agree with its ledger.
                JsonNode ledger = stage.ledger();
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
}
