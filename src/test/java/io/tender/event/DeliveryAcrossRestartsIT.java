package io.tender.event;

import io.cloudevents.CloudEvent;
import io.cloudevents.kafka.CloudEventDeserializer;
import io.tender.support.Api;
import io.tender.support.WebhookReceiver;
import io.tender.support.WebhookReceiver.Received;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.pin;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged service as a real process, killed with SIGKILL in the middle of a webhook delivery and started
 * again on the same data directory: every event still reaches a receiver that verifies Standard Webhooks
 * signatures, at least once, with a stable {@code webhook-id} and a fresh timestamp on each attempt, and reaches
 * Kafka as structured-mode CloudEvents that the CloudEvents SDK parses.
 */
class DeliveryAcrossRestartsIT {

    private static final String TOPIC = "tender.events";
    private static final Duration START = Duration.ofSeconds(180);

    private EmbeddedKafkaKraftBroker kafka;
    private WebhookReceiver receiver;
    private Path dataDir;
    private Process service;
    private int port;
    private int managementPort;
    private final String key = "sk_test_" + UUID.randomUUID().toString().replace("-", "");

    @BeforeEach
    void setUp() throws IOException {
        kafka = new EmbeddedKafkaKraftBroker(1, 1, TOPIC);
        kafka.afterPropertiesSet();
        receiver = WebhookReceiver.start();
        dataDir = Files.createTempDirectory("tender-restart-");
        try (ServerSocket socket = new ServerSocket(0); ServerSocket management = new ServerSocket(0)) {
            port = socket.getLocalPort();
            managementPort = management.getLocalPort();
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        try {
            if (service != null && service.isAlive()) {
                service.destroy(); // SIGTERM: graceful shutdown, which stops its PostgreSQL too
                if (!service.waitFor(60, TimeUnit.SECONDS)) {
                    service.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            }
        } finally {
            stopLeftoverPostgres();
            receiver.close();
            kafka.destroy();
            org.springframework.util.FileSystemUtils.deleteRecursively(dataDir);
        }
    }

    @Test
    void everyEventArrivesSignedAtLeastOnceAcrossAKillInTheMiddleOfADelivery() throws Exception {
        service = start("first");
        Api api = new Api("http://127.0.0.1:" + port, key);
        var endpoint = api.post("/webhook_endpoints", "{\"url\":\"" + receiver.url("/hooks")
                + "\",\"enabled_events\":[\"*\"]}").send();
        assertThat(endpoint.status()).as(endpoint.toString()).isEqualTo(201);
        receiver.secrets(endpoint.json().get("secret").stringValue());

        // Every event's first attempt fails, so each is retried; the 5th request is held open until the kill.
        Set<String> seenOnce = ConcurrentHashMap.newKeySet();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<String> heldEvent = new AtomicReference<>();
        AtomicBoolean held = new AtomicBoolean();
        // When each event was answered 2xx (just before the answer is sent), for the order check below.
        Map<String, List<Instant>> acknowledged = new ConcurrentHashMap<>();
        receiver.respond(r -> {
            if (seenOnce.add(r.webhookId())) {
                return 500;
            }
            if (held.compareAndSet(false, true)) {
                heldEvent.set(r.webhookId());
                holding.countDown();
                await(release);
            }
            acknowledged.computeIfAbsent(r.webhookId(), id -> new CopyOnWriteArrayList<>()).add(Instant.now());
            return 200;
        });

        List<String> redemptions = new ArrayList<>();
        for (String voucher : List.of(validPin(), pin("0003"), validPin())) {
            redemptions.add(redeem(api, voucher));
        }
        assertThat(holding.await(60, TimeUnit.SECONDS)).as("a delivery in flight").isTrue();

        service.destroyForcibly();
        assertThat(service.waitFor(30, TimeUnit.SECONDS)).isTrue();
        release.countDown(); // its answer goes to a dead process: the service never learns it arrived

        service = start("second");
        for (String voucher : List.of(validPin(), pin("0002"))) {
            redemptions.add(redeem(api, voucher));
        }

        Map<String, JsonNode> events = allEvents(api);
        // 3 events per redemption, except a reserve refused at once (0002): created and failed.
        assertThat(events).hasSize(14);
        assertThat(events.values().stream().map(e -> e.get("data").get("id").stringValue()).collect(Collectors.toSet()))
                .containsExactlyInAnyOrderElementsOf(redemptions);

        List<Received> received = receiver.await(r -> deliveredWithSuccess(r, events.keySet()), Duration.ofSeconds(120),
                "every event answered with 200");
        for (String eventId : events.keySet()) {
            List<Received> attempts = received.stream().filter(r -> r.webhookId().equals(eventId)).toList();
            assertThat(attempts).as(eventId).hasSizeGreaterThanOrEqualTo(2).allSatisfy(r -> {
                assertThat(r.signatureValid()).isTrue();
                assertThat(r.json().get("id").stringValue()).isEqualTo(eventId);
                assertThat(r.json()).isEqualTo(events.get(eventId));
            });
            // Retries come at least a second apart, each with its own timestamp.
            assertThat(attempts.stream().map(Received::timestamp).distinct().count()).as(eventId).isEqualTo(attempts.size());
        }
        // The attempt cut short by the kill was made again after the restart.
        assertThat(received.stream().filter(r -> r.webhookId().equals(heldEvent.get())).count()).isGreaterThanOrEqualTo(3);
        // One redemption's events arrive in order: created before reserved before confirmed/failed.
        for (String redemption : redemptions) {
            List<String> firstSuccess = received.stream().filter(r -> r.json().get("data").get("id").stringValue().equals(redemption))
                    .map(Received::type).distinct().toList();
            assertThat(firstSuccess.getFirst()).isEqualTo("redemption.created");
        }
        // And each waits for the one before it: no attempt of a redemption's next event (not even its failing first
        // one) reaches the receiver before the previous event was answered 2xx, across the kill too (an answer the
        // killed service never read does not count: the previous event is delivered again, and the next waits for that).
        for (String redemption : redemptions) {
            List<JsonNode> inOrder = events.values().stream()
                    .filter(e -> e.get("data").get("id").stringValue().equals(redemption))
                    // Event ids grow in the order events are appended (reserved and failed share a version).
                    .sorted(Comparator.comparing(e -> e.get("id").stringValue())).toList();
            assertThat(inOrder).as(redemption).hasSizeGreaterThanOrEqualTo(2);
            for (int n = 1; n < inOrder.size(); n++) {
                String previous = inOrder.get(n - 1).get("id").stringValue();
                String next = inOrder.get(n).get("id").stringValue();
                assertThat(acknowledged.get(previous)).as("2xx answers to %s", previous).isNotEmpty();
                Instant previousAcknowledged = Collections.max(acknowledged.get(previous));
                Instant nextFirstArrived = received.stream().filter(r -> r.webhookId().equals(next))
                        .map(Received::receivedAt).min(Comparator.naturalOrder()).orElseThrow();
                assertThat(nextFirstArrived).as("first attempt of %s (%s) after the 2xx to %s (%s)", next,
                        inOrder.get(n).get("type").stringValue(), previous, inOrder.get(n - 1).get("type").stringValue())
                        .isAfter(previousAcknowledged);
            }
        }

        Map<String, ConsumerRecord<String, CloudEvent>> published = kafkaRecords(events.keySet());
        for (JsonNode event : events.values()) {
            var record = published.get(event.get("id").stringValue());
            CloudEvent cloudEvent = record.value();
            assertThat(cloudEvent.getSpecVersion().toString()).isEqualTo("1.0");
            assertThat(cloudEvent.getType()).isEqualTo(event.get("type").stringValue());
            assertThat(cloudEvent.getSubject()).isEqualTo(event.get("data").get("id").stringValue());
            assertThat(record.key()).isEqualTo(cloudEvent.getSubject());
            assertThat(new String(record.headers().lastHeader("content-type").value(), StandardCharsets.UTF_8))
                    .startsWith("application/cloudevents+json");
            assertThat(Api.JSON.readTree(cloudEvent.getData().toBytes())).isEqualTo(event.get("data"));
        }
    }

    private static boolean deliveredWithSuccess(List<Received> received, Set<String> eventIds) {
        Map<String, Long> counts = received.stream().filter(Received::signatureValid)
                .collect(Collectors.groupingBy(Received::webhookId, Collectors.counting()));
        // Each event: one failed first attempt, then at least one answered 200.
        return eventIds.stream().allMatch(id -> counts.getOrDefault(id, 0L) >= 2);
    }

    private Process start(String run) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Path jar = Path.of("target", "tender.jar").toAbsolutePath();
        assertThat(jar).as("the packaged service (mvn package runs before the integration tests)").exists();
        var builder = new ProcessBuilder(java, "-Xmx512m", "-XX:TieredStopAtLevel=1", "-jar", jar.toString());
        builder.environment().put("TENDER_DATA_DIR", dataDir.toString());
        builder.environment().put("SERVER_PORT", Integer.toString(port));
        builder.environment().put("MANAGEMENT_SERVER_PORT", Integer.toString(managementPort));
        builder.environment().put("TENDER_BOOTSTRAP_KEYS", "acme:" + key);
        builder.environment().put("TENDER_EVENTS_KAFKA_BOOTSTRAP_SERVERS", kafka.getBrokersAsString());
        builder.environment().put("TENDER_WEBHOOKS_RETRY_SCHEDULE", "PT1.5S,PT1.5S,PT2S,PT2S,PT3S,PT3S");
        builder.environment().put("TENDER_WEBHOOKS_TIMEOUT", "PT3S");
        builder.environment().put("TENDER_WEBHOOKS_POLL_INTERVAL", "PT0.2S");
        builder.environment().put("TENDER_WEBHOOKS_ALLOW_PRIVATE_TARGETS", "true"); // the receiver is on 127.0.0.1
        builder.environment().put("TENDER_EVENTS_POLL_INTERVAL", "PT0.2S");
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(dataDir.resolve("service-" + run + ".log").toFile()));
        Process process = builder.start();
        long deadline = System.nanoTime() + START.toNanos();
        Api health = new Api("http://127.0.0.1:" + managementPort, null);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("the service exited on start:\n" + log(run));
            }
            try {
                if (health.get("/actuator/health/readiness").send().status() == 200) {
                    return process;
                }
            } catch (RuntimeException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the service did not become ready:\n" + log(run));
    }

    private String log(String run) {
        try {
            String text = Files.readString(dataDir.resolve("service-" + run + ".log"));
            return text.length() > 6000 ? text.substring(text.length() - 6000) : text;
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static String redeem(Api api, String voucher) {
        var response = api.post("/collect/redemptions", oneVoucher(voucher)).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json().get("id").stringValue();
    }

    private static Map<String, JsonNode> allEvents(Api api) {
        Map<String, JsonNode> events = new HashMap<>();
        String cursor = null;
        do {
            var page = api.get("/events?limit=100" + (cursor == null ? "" : "&cursor=" + cursor)).send().json();
            page.get("data").forEach(e -> events.put(e.get("id").stringValue(), e));
            cursor = page.get("next_cursor").isNull() ? null : page.get("next_cursor").stringValue();
        } while (cursor != null);
        return events;
    }

    private Map<String, ConsumerRecord<String, CloudEvent>> kafkaRecords(Set<String> eventIds) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBrokersAsString(),
                ConsumerConfig.GROUP_ID_CONFIG, "restart-test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Map<String, ConsumerRecord<String, CloudEvent>> byId = new HashMap<>();
        try (var consumer = new KafkaConsumer<>(config, new StringDeserializer(), new CloudEventDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!byId.keySet().containsAll(eventIds) && System.nanoTime() < deadline) {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    byId.putIfAbsent(record.value().getId(), record);
                }
            }
        }
        Set<String> missing = new HashSet<>(eventIds);
        missing.removeAll(byId.keySet());
        assertThat(missing).as("events never published to Kafka").isEmpty();
        return byId;
    }

    /** A killed service leaves its PostgreSQL running; the next start stops it, and so does this, at the end. */
    private void stopLeftoverPostgres() throws Exception {
        Path pidFile = dataDir.resolve("postgres").resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        long pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().trim());
        var postgres = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (postgres.isPresent()) {
            postgres.get().destroy();
            postgres.get().onExit().get(60, TimeUnit.SECONDS);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
