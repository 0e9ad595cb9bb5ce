package io.tender.payment;

import io.tender.support.Api;
import io.tender.support.ServiceProcess;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
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
 * What the crash tests of payments, refunds and subscription charges share: the packaged service in live mode against
 * the processor simulator, with a quick recovery job; the live session and checkout calls they make through it; the
 * kill in the middle of calls; and the checks afterwards (keyed calls replay their final answer, nothing is left
 * pending, the simulator's ledger).
 */
public final class LiveCrashes {

    public static final int YEAR = java.time.YearMonth.now().getYear() + 2;

    /** The service's arguments: the checkout's JSON API on, the recovery job every 0.5 s on calls older than 2 s. */
    public static final String[] ARGUMENTS = {"--tender.checkout.json-api=true", "--tender.payments.recovery.interval=PT0.5S",
            "--tender.payments.lease=PT8S", "--tender.payments.recovery.min-age=PT2S",
            "--tender.processor.live.read-timeout=5s"};

    private static final Duration PATIENCE = Duration.ofSeconds(90);

    private LiveCrashes() {
    }

    /**
     * A crash test's ground: a fresh data folder, the processor simulator running on it, and the port and environment
     * of the service, which a test starts (and starts again after the kill) with {@link #service}.
     */
    public record Stage(ServiceProcess simulator, int servicePort, Map<String, String> environment, String key)
            implements AutoCloseable {

        /** Starts the simulator answering each call after {@code delay}; {@code key}: the service's live key. */
        public static Stage start(String name, String key, Duration delay) throws IOException {
            Path root = Files.createTempDirectory("tender-" + name + "-crash-");
            int simulatorPort = ServiceProcess.freePort();
            var simulator = ServiceProcess.simulator("simulator", simulatorPort, Map.of(
                    "TENDER_DATA_DIR", root.resolve("simulator").toString(), "SIMULATOR_DELAY", delay.toString()));
            return new Stage(simulator.start(), ServiceProcess.freePort(), Map.of(
                    "TENDER_DATA_DIR", root.resolve("service").toString(),
                    "TENDER_BOOTSTRAP_KEYS", "crash:" + key,
                    "TENDER_PROCESSOR_LIVE_BASEURL", "http://localhost:" + simulatorPort + "/processor"), key);
        }

        /** Starts the service on the stage's data (the same port each time); {@link #ARGUMENTS} unless others given. */
        public ServiceProcess service(String name, String... arguments) {
            return ServiceProcess.service(name, servicePort, environment,
                    arguments.length == 0 ? ARGUMENTS : arguments).start();
        }

        /** The service's API with the stage's key, whichever instance is running. */
        public Api api() {
            return new Api("http://localhost:" + servicePort, key);
        }

        /** Every operation the simulated processor recorded. */
        public JsonNode ledger() {
            return new Api(simulator.baseUrl(), null).get("/_ledger").send().json().get("processor_operations");
        }

        @Override
        public void close() {
            simulator.close();
        }
    }

    /** A call sent with an Idempotency-Key, which the crash may cut short and the restarted service must finish. */
    public record KeyedCall(String key, String path, String body) {

        public Api.Response send(Api api) {
            return api.post(path, body).idempotencyKey(key).send();
        }
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

    /** The ids of {@code count} payments of ZAR 100.00, each paid by card (authorized only when {@code manual}). */
    public static List<String> paid(Api api, int count, boolean manual) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            JsonNode attempt = pay(api, session(api, 10000, manual), "4242424242424242");
            assertThat(attempt.get("status").stringValue()).isEqualTo("succeeded");
            ids.add(attempt.get("payment_id").stringValue());
        }
        return ids;
    }

    /**
     * Sends the calls at once, kills the service with SIGKILL after {@code after} (while they are in flight), and
     * answers the moment of the kill; a call the kill cuts short is let go.
     */
    public static Instant killDuring(ServiceProcess service, Duration after, List<Runnable> calls)
            throws InterruptedException {
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            calls.forEach(call -> pool.submit(() -> quietly(call)));
            Thread.sleep(after.toMillis());
            service.kill();
            Instant killedAt = Instant.now();
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
            return killedAt;
        }
    }

    /**
     * Each call's final answer, by key: sent again until it answers {@code done} ({@code waiting}: what it may answer
     * meanwhile, while its first request or the recovery job finishes it); then each is sent once more and must
     * replay that answer byte for byte.
     */
    public static Map<String, byte[]> finalAnswers(Api api, List<KeyedCall> calls, int done, Integer... waiting)
            throws InterruptedException {
        Map<String, byte[]> answers = new HashMap<>();
        for (KeyedCall call : calls) {
            Instant deadline = Instant.now().plus(PATIENCE);
            Api.Response last = call.send(api);
            while (last.status() != done) {
                assertThat(last.status()).as(last.toString()).isIn((Object[]) waiting);
                assertThat(Instant.now()).as("a final answer for " + call.key() + ": " + last).isBefore(deadline);
                Thread.sleep(300);
                last = call.send(api);
            }
            answers.put(call.key(), last.bytes());
        }
        for (KeyedCall call : calls) {
            var replay = call.send(api);
            assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
            assertThat(replay.bytes()).isEqualTo(answers.get(call.key()));
        }
        return answers;
    }

    /** The list at {@code path} once none of its objects is {@code pending} any more (or after 90 s: as it is). */
    public static List<JsonNode> noneLeftPending(Api api, String path) throws InterruptedException {
        List<JsonNode> listed = new ArrayList<>();
        Instant deadline = Instant.now().plus(PATIENCE);
        while (true) {
            listed.clear();
            api.get(path).send().json().get("data").forEach(listed::add);
            if (listed.stream().noneMatch(o -> o.get("status").stringValue().equals("pending"))
                    || Instant.now().isAfter(deadline)) {
                return listed;
            }
            Thread.sleep(500);
        }
    }

    /** The objects of {@code listed} created before {@code killedAt} and last changed after it. */
    public static List<JsonNode> spanning(List<JsonNode> listed, Instant killedAt) {
        return listed.stream().filter(o -> Instant.parse(o.get("created_at").stringValue()).isBefore(killedAt)
                && Instant.parse(o.get("updated_at").stringValue()).isAfter(killedAt)).toList();
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
