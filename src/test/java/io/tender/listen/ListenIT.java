package io.tender.listen;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import io.tender.support.WebhookReceiver;
import io.tender.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tender listen} (issue 27) against the running service over HTTP, run in-process as the launcher runs it:
 * a local receiver gets every event of a tour, in the event log's order, signed with the secret the listener printed
 * (checked by a receiver written from the Standard Webhooks specification) and byte for byte as a real webhook
 * delivery of the same event; nothing is lost or repeated across a restart; {@code --events} filters; a receiver
 * that fails is retried and its event is neither skipped nor passed over by the saved position.
 */
class ListenIT extends ApiIntegrationTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Pattern SECRET = Pattern.compile("Ready! Your webhook signing secret is (whsec_[A-Za-z0-9+/=]+)");

    @TempDir
    Path directory;

    private Merchant merchant;
    private Api api;
    private WebhookReceiver receiver;
    private final List<RunningListener> listeners = new ArrayList<>();

    @BeforeEach
    void setUp() {
        merchant = merchants.create();
        api = merchant.test();
        receiver = WebhookReceiver.start();
    }

    @AfterEach
    void tearDown() {
        listeners.forEach(RunningListener::stop);
        receiver.close();
    }

    /** The listener running on a thread of its own, as {@code tender listen} would run in its own process. */
    private final class RunningListener {
        private final ByteArrayOutputStream output = new ByteArrayOutputStream();
        private final AtomicInteger exit = new AtomicInteger(-1);
        private final Thread thread;

        RunningListener(List<String> arguments) {
            PrintStream stream = new PrintStream(output, true, StandardCharsets.UTF_8);
            thread = Thread.ofPlatform().name("tender-listen-test").start(
                    () -> exit.set(Listen.run(arguments, Map.of(), stream, stream)));
        }

        String output() {
            synchronized (output) {
                return output.toString(StandardCharsets.UTF_8);
            }
        }

        String secret() {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() < deadline) {
                Matcher matcher = SECRET.matcher(output());
                if (matcher.find()) {
                    return matcher.group(1);
                }
                assertThat(thread.isAlive()).as("the listener stopped: " + output()).isTrue();
                sleep(50);
            }
            throw new AssertionError("the listener printed no secret: " + output());
        }

        /** Ctrl-C: interrupts it and waits until it has stopped cleanly. */
        void stop() {
            if (!thread.isAlive()) {
                return;
            }
            thread.interrupt();
            try {
                thread.join(Duration.ofSeconds(15));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            assertThat(thread.isAlive()).as("still running after the interrupt").isFalse();
            assertThat(exit.get()).as(output()).isZero();
        }
    }

    private RunningListener listen(String... extra) {
        List<String> arguments = new ArrayList<>(List.of("--forward-to", receiver.url("/webhooks"),
                "--api-key", api.key(), "--base-url", api.base(), "--state", directory.resolve("listen.json").toString(),
                "--interval", "200ms"));
        arguments.addAll(List.of(extra));
        RunningListener listener = new RunningListener(arguments);
        listeners.add(listener);
        return listener;
    }

    /** A redemption, once confirmed: its three events (created, reserved, confirmed) are then in the log. */
    private String redeem() {
        var response = api.post("/collect/redemptions", oneVoucher(validPin())).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        String id = response.json().get("id").stringValue();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!api.get("/collect/redemptions/" + id).send().json().get("status").stringValue().equals("confirmed")) {
            assertThat(System.nanoTime()).as("redemption " + id + " confirmed in time").isLessThan(deadline);
            sleep(50);
        }
        return id;
    }

    private void openSession() {
        var response = api.post("/collect/payment_sessions", "{\"amount\":1000,\"currency\":\"ZAR\"}").send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
    }

    /** The merchant's test-mode event ids, oldest first (the log's order), from GET /events. */
    private List<String> eventLog() {
        List<String> newestFirst = new ArrayList<>();
        String cursor = null;
        do {
            var page = api.get("/events?limit=100" + (cursor == null ? "" : "&cursor=" + cursor)).send();
            assertThat(page.status()).isEqualTo(200);
            page.json().get("data").forEach(e -> newestFirst.add(e.get("id").stringValue()));
            cursor = page.json().get("has_more").booleanValue() ? page.json().get("next_cursor").stringValue() : null;
        } while (cursor != null);
        return newestFirst.reversed();
    }

    private Map<String, String> typesOfLog() {
        Map<String, String> types = new ConcurrentHashMap<>();
        String cursor = null;
        do {
            var page = api.get("/events?limit=100" + (cursor == null ? "" : "&cursor=" + cursor)).send();
            page.json().get("data").forEach(e -> types.put(e.get("id").stringValue(), e.get("type").stringValue()));
            cursor = page.json().get("has_more").booleanValue() ? page.json().get("next_cursor").stringValue() : null;
        } while (cursor != null);
        return types;
    }

    private static List<String> ids(List<Received> received) {
        return received.stream().map(Received::webhookId).toList();
    }

    /** Waits until the receiver has had every one of these events. */
    private List<Received> awaitAll(WebhookReceiver on, List<String> events) {
        return on.await(r -> ids(r).containsAll(events), WAIT, "events " + events);
    }

    @Test
    void everyEventOfATourArrivesInOrderSignedAsADeliveryAndNoneIsLostOrRepeatedAcrossARestart() throws Exception {
        // Before the first start: not forwarded (a first run starts from now).
        redeem();
        List<String> before = eventLog();
        assertThat(before).isNotEmpty();
        // A real webhook endpoint too, so what the listener sends can be compared with a delivery of the same event.
        try (WebhookReceiver delivered = WebhookReceiver.start()) {
            var endpoint = api.post("/webhook_endpoints", "{\"url\":\"" + delivered.url("/hooks")
                    + "\",\"enabled_events\":[\"*\"]}").send();
            assertThat(endpoint.status()).as(endpoint.toString()).isEqualTo(201);
            delivered.secrets(endpoint.json().get("secret").stringValue());

            RunningListener first = listen();
            String secret = first.secret();
            receiver.secrets(secret);
            assertThat(first.output()).contains("Forwarding events from now on");
            redeem();
            openSession();
            List<String> tour = eventLog().stream().filter(id -> !before.contains(id)).toList();
            assertThat(tour).hasSizeGreaterThanOrEqualTo(4);

            List<Received> received = awaitAll(receiver, tour);
            assertThat(ids(received)).as("every event of the tour, once, in the log's order").isEqualTo(tour);
            assertThat(received).allSatisfy(r -> assertThat(r.signatureValid()).as(r.webhookId()).isTrue());

            // Byte for byte what a webhook delivery of the same event carries, with the same headers but the secret.
            List<Received> deliveries = awaitAll(delivered, tour);
            for (Received forwarded : received) {
                Received delivery = deliveries.stream().filter(d -> d.webhookId().equals(forwarded.webhookId()))
                        .findFirst().orElseThrow();
                assertThat(forwarded.body()).as(forwarded.webhookId()).isEqualTo(delivery.body());
                assertThat(forwarded.contentType()).isEqualTo(delivery.contentType());
                assertThat(forwarded.userAgent()).isEqualTo(delivery.userAgent());
                JsonNode body = forwarded.json();
                assertThat(body.propertyNames()).containsExactly("id", "type", "created_at", "data");
                assertThat(first.output()).contains("--> " + forwarded.type() + " [" + forwarded.webhookId() + "]  <-- [200]");
            }

            // Stopped (Ctrl-C); events happen meanwhile; started again on the same state: nothing lost or repeated.
            first.stop();
            assertThat(first.output()).contains("Stopped.");
            redeem();
            openSession();
            RunningListener second = listen();
            assertThat(second.secret()).as("the same secret on every run").isEqualTo(secret);
            assertThat(second.output()).contains("Resuming after the events already forwarded");
            List<String> all = eventLog().stream().filter(id -> !before.contains(id)).toList();
            assertThat(all.size()).isGreaterThan(tour.size());
            List<Received> afterRestart = awaitAll(receiver, all);
            assertThat(ids(afterRestart)).as("every event once, in order, across the restart").isEqualTo(all);
            assertThat(afterRestart).allSatisfy(r -> assertThat(r.signatureValid()).as(r.webhookId()).isTrue());
            assertThat(ids(afterRestart)).doesNotContainAnyElementsOf(before);
        }
        // The state file holds the secret: its owner's only.
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory.resolve("listen.json"))))
                .isEqualTo("rw-------");
    }

    @Test
    void eventsFiltersTypesExactlyAndByPrefix() {
        RunningListener listener = listen("--events", "redemption.confirmed,payment_session.*");
        receiver.secrets(listener.secret());
        redeem();
        openSession();
        redeem();
        Map<String, String> types = typesOfLog();
        List<String> wanted = eventLog().stream().filter(id -> types.get(id).equals("redemption.confirmed")
                || types.get(id).startsWith("payment_session.")).toList();
        assertThat(wanted).hasSizeGreaterThanOrEqualTo(3);
        assertThat(types.values()).contains("redemption.created", "redemption.reserved");

        List<Received> received = awaitAll(receiver, wanted);
        // The last wanted event arrived after every other (in order), so anything filtered out would be here by now.
        assertThat(ids(received)).isEqualTo(wanted);
        assertThat(received).allSatisfy(r -> assertThat(r.signatureValid()).isTrue());
    }

    @Test
    void aFailingReceiverGetsTheSameEventAgainAndTheSavedPositionDoesNotPassIt() {
        AtomicBoolean failing = new AtomicBoolean(true);
        receiver.respond(r -> failing.get() ? 500 : 200);
        RunningListener first = listen();
        receiver.secrets(first.secret());
        redeem();
        List<String> events = eventLog();
        assertThat(events).hasSize(3);
        String head = events.getFirst();

        // Retried (1 s, then 2 s later), never passed over: the later events wait.
        receiver.await(r -> r.size() >= 2, WAIT, "the first event twice");
        assertThat(ids(receiver.received())).containsOnly(head);
        assertThat(first.output()).contains("<-- [500]").contains("not accepted: sending " + head + " again");

        // Stopped while the receiver still fails: the next run starts with that event, not after it.
        first.stop();
        int attempts = receiver.received().size();
        failing.set(false);
        RunningListener second = listen();
        second.secret();
        List<Received> received = awaitAll(receiver, events);
        assertThat(ids(received.subList(attempts, received.size()))).isEqualTo(events);

        // And a receiver that fails once, then accepts, gets that event again before the next one.
        AtomicInteger calls = new AtomicInteger();
        receiver.respond(r -> calls.incrementAndGet() == 1 ? 500 : 200);
        int before = receiver.received().size();
        redeem();
        List<String> more = eventLog().stream().filter(id -> !events.contains(id)).toList();
        List<Received> all = awaitAll(receiver, more);
        List<String> later = ids(all.subList(before, all.size()));
        assertThat(later).isEqualTo(List.of(more.get(0), more.get(0), more.get(1), more.get(2)));
        assertThat(Set.copyOf(later)).hasSize(3);
    }

    @Test
    void anEventWhoseTransactionCommitsAfterNewerOnesWereForwardedIsStillForwarded() {
        RunningListener listener = listen();
        receiver.secrets(listener.secret());
        redeem();
        List<String> events = eventLog();
        awaitAll(receiver, events);

        // As a transaction that took its event's id (and time) 20 s ago and commits only now: its id is older than
        // those already forwarded. (Written as the outbox row it would be; GET /events reads the outbox.)
        String template = events.getLast();
        long millis = Long.parseLong(template.substring(4, 16), 16) - 20_000;
        String late = "evt_" + String.format("%012x", millis) + "0123456789ab";
        assertThat(late).isLessThan(events.getFirst());
        jdbc.sql("""
                        insert into outbox (id, aggregatetype, aggregateid, type, payload, merchant_id, mode, created_at)
                        select ?, aggregatetype, aggregateid, type, payload, merchant_id, mode,
                               created_at - interval '20 seconds'
                          from outbox where id = ?""")
                .params(late, template).update();

        List<Received> received = receiver.await(r -> ids(r).contains(late), WAIT, "the late event");
        List<String> expected = new ArrayList<>(events);
        expected.add(late);
        assertThat(ids(received)).isEqualTo(expected);
        assertThat(received.getLast().signatureValid()).isTrue();
    }

    @Test
    void eventsComeInTheMerchantsPinnedVersionUnlessApiVersionNamesAnother() {
        var pinned = merchants.admin().patch("/admin/merchants/" + merchant.name(), "{\"api_version\":\"2026-03-13\"}")
                .send();
        assertThat(pinned.status()).as(pinned.toString()).isEqualTo(200);
        RunningListener inPinned = listen("--events", "payment_session.created");
        receiver.secrets(inPinned.secret());
        assertThat(inPinned.output()).contains("in API version 2026-03-13 (your pinned one");
        try (WebhookReceiver newest = WebhookReceiver.start()) {
            RunningListener inNewest = new RunningListener(List.of("--forward-to", newest.url("/webhooks"),
                    "--api-key", api.key(), "--base-url", api.base(), "--state", directory.resolve("newest.json").toString(),
                    "--interval", "200ms", "--events", "payment_session.created", "--api-version", "2026-06-01"));
            listeners.add(inNewest);
            newest.secrets(inNewest.secret());
            var session = api.post("/collect/payment_sessions", """
                    {"amount": 1000, "currency": "ZAR", "options": {"checkout_options": {"presentation_mode": "embedded_inline"}}}""")
                    .send();
            assertThat(session.status()).as(session.toString()).isEqualTo(201);

            Received old = receiver.await(r -> !r.isEmpty(), WAIT, "the session's event").getFirst();
            Received current = newest.await(r -> !r.isEmpty(), WAIT, "the session's event").getFirst();
            assertThat(old.webhookId()).isEqualTo(current.webhookId());
            assertThat(old.apiVersion()).isEqualTo("2026-03-13");
            assertThat(current.apiVersion()).isEqualTo("2026-06-01");
            assertThat(old.signatureValid()).isTrue();
            assertThat(current.signatureValid()).isTrue();
            assertThat(old.json().at("/data/options/checkout_options/displayPayButton").booleanValue()).isTrue();
            assertThat(current.json().at("/data/options/checkout_options/display_pay_button").booleanValue()).isTrue();
        }
    }

    @Test
    void aKeyTheServiceDoesNotKnowStopsItWithAClearErrorAndNoSecret() {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        PrintStream stream = new PrintStream(output, true, StandardCharsets.UTF_8);
        String unknownKey = "sk_test_" + "0".repeat(32);
        int exit = Listen.run(List.of("--forward-to", receiver.url("/webhooks"), "--api-key", unknownKey,
                "--base-url", api.base(), "--state", directory.resolve("unknown.json").toString()), Map.of(), stream, stream);
        String printed = output.toString(StandardCharsets.UTF_8);
        assertThat(exit).isEqualTo(1);
        assertThat(printed).contains("Tender refused the API key (401)").contains("--api-key").contains("TENDER_API_KEY")
                .doesNotContain("whsec_").doesNotContain(unknownKey);
        assertThat(directory.resolve("unknown.json")).doesNotExist();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }
}
