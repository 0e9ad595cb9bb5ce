package io.tender.redemption;

import io.tender.support.Api;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The shapes a redemption takes in the API, as decisions §2's version table gives them. */
final class RedemptionAssertions {

    private RedemptionAssertions() {
    }

    /** Refused before the voucher was touched: one failed reserve, version 2, its error as {@code last_error}. */
    static void assertFailedAtReserve(JsonNode r, String errorCode) {
        assertThat(r.get("status").stringValue()).as(r.toString()).isEqualTo("failed");
        assertThat(r.get("version").intValue()).isEqualTo(2);
        assertThat(r.get("operations")).hasSize(1);
        JsonNode reserve = r.get("operations").get(0);
        assertThat(reserve.get("type").stringValue()).isEqualTo("reserve");
        assertThat(reserve.get("status").stringValue()).isEqualTo("failed");
        assertThat(reserve.get("error").get("error_code").stringValue()).isEqualTo(errorCode);
        assertThat(r.get("last_error").get("error_code").stringValue()).isEqualTo(errorCode);
    }

    /**
     * Sends a create again under its key until the service gives the final answer: a crash leaves keys in flight
     * (409) or unresolved (504) until the recovery job has finished their redemptions.
     */
    static JsonNode awaitFinalAnswer(Api api, String key, String body) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
        Api.Response last = null;
        while (Instant.now().isBefore(deadline)) {
            last = api.post("/collect/redemptions", body).idempotencyKey(key).send();
            if (last.status() == 201) {
                assertThat(last.json().get("status").stringValue()).isIn("confirmed", "failed");
                return last.json();
            }
            assertThat(last.status()).as(last.toString()).isIn(409, 504);
            Thread.sleep(300);
        }
        throw new AssertionError("no final answer for " + key + ": " + last);
    }
}
