package io.tender.payment;

import io.tender.support.Api;
import tools.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the crash tests of payments share: the packaged service in live mode against the processor simulator, with a
 * quick recovery job, and the live session and checkout calls they make through it.
 */
public final class LiveCrashes {

    public static final int YEAR = java.time.YearMonth.now().getYear() + 2;

    /** The service's arguments: the checkout's JSON API on, the recovery job every 0.5 s on calls older than 2 s. */
    public static final String[] ARGUMENTS = {"--tender.checkout.json-api=true", "--tender.payments.recovery.interval=PT0.5S",
            "--tender.payments.lease=PT8S", "--tender.payments.recovery.min-age=PT2S",
            "--tender.processor.live.read-timeout=5s"};

    private LiveCrashes() {
    }

    /** The service's environment: its data under {@code root}, the bootstrap {@code key}, the simulator's processor. */
    public static Map<String, String> environment(Path root, String key, int simulatorPort) {
        return Map.of(
                "TENDER_DATA_DIR", root.resolve("service").toString(),
                "TENDER_BOOTSTRAP_KEYS", "crash:" + key,
                "TENDER_PROCESSOR_LIVE_BASEURL", "http://localhost:" + simulatorPort + "/processor");
    }

    /** A live session's checkout id; {@code manual}: cards are authorized only. */
    public static String session(Api api, long amount, boolean manual) {
        var response = api.post("/collect/payment_sessions", "{\"amount\":" + amount + ",\"currency\":\"ZAR\""
                + (manual ? ",\"options\":{\"payment_method_options\":{\"card\":{\"capture_method\":\"manual\"}}}" : "")
                + "}").send();
        assertThat(response.status()).as(response.text()).isEqualTo(201);
        return response.json().get("checkout_session_id").stringValue();
    }

    /** Pays the checkout by card through its JSON API; the attempt as answered. */
    public static JsonNode pay(Api api, String checkout, String card) {
        var response = new Api(api.base(), null).post("/checkout-api/" + checkout + "/attempts",
                "{\"method\":\"card\",\"card_number\":\"" + card + "\",\"exp_month\":12,\"exp_year\":" + YEAR
                        + ",\"security_code\":\"123\"}").send();
        assertThat(response.status()).as(response.text()).isEqualTo(201);
        return response.json();
    }

    /** Runs a request the kill may cut short. */
    public static void quietly(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException | AssertionError killed) {
            // the service died under this request
        }
    }
}
