package io.tender.webhook;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import io.tender.support.StandardWebhooksVerifier;
import io.tender.support.WebhookReceiver;
import io.tender.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.pin;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redemptions reach a merchant's receiver as signed webhooks (decisions §5), checked by a receiver written from the
 * Standard Webhooks specification; retries, 410, redelivery and the attempt log.
 */
class WebhookDeliveryIT extends ApiIntegrationTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private Merchant merchant;
    private Api api;
    private WebhookReceiver receiver;

    @BeforeEach
    void setUp() {
        merchant = merchants.create();
        api = merchant.test();
        receiver = WebhookReceiver.start();
    }

    @AfterEach
    void tearDown() {
        receiver.close();
    }

    private JsonNode endpoint(String enabledEvents) {
        var response = api.post("/webhook_endpoints", "{\"url\":\"" + receiver.url("/hooks") + "\",\"enabled_events\":"
                + enabledEvents + "}").send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        receiver.secrets(response.json().get("secret").stringValue());
        return response.json();
    }

    private String redeem(String pin) {
        var response = api.post("/collect/redemptions", oneVoucher(pin)).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json().get("id").stringValue();
    }

    private static List<Received> about(List<Received> received, String redemptionId) {
        return received.stream().filter(r -> r.json().get("data").get("id").stringValue().equals(redemptionId)).toList();
    }

    private static List<String> types(List<Received> received) {
        return received.stream().map(Received::type).toList();
    }

    @Test
    void aConfirmedRedemptionArrivesAsSignedCreatedReservedConfirmedWebhooksInOrder() {
        endpoint("[\"*\"]");
        String id = redeem(validPin());

        List<Received> received = receiver.await(r -> about(r, id).size() == 3, WAIT, "three events of " + id);

        assertThat(types(about(received, id))).containsExactly("redemption.created", "redemption.reserved", "redemption.confirmed");
        for (Received r : received) {
            assertThat(r.signatureValid()).as("signature of " + r.webhookId()).isTrue();
            assertThat(r.contentType()).startsWith("application/json");
            JsonNode body = r.json();
            assertThat(body.propertyNames()).containsExactly("id", "type", "created_at", "data");
            assertThat(body.get("id").stringValue()).isEqualTo(r.webhookId()).matches("^evt_[a-f0-9]{24}$");
            assertThat(body.get("created_at").stringValue()).matches("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$");
            // The event log shows exactly what the webhook carried.
            var logged = api.get("/events/" + r.webhookId()).send();
            assertThat(logged.status()).isEqualTo(200);
            assertThat(logged.json()).isEqualTo(body);
        }
        JsonNode confirmed = received.get(2).json().get("data");
        assertThat(confirmed.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(confirmed.get("version").intValue()).isEqualTo(3);
        assertThat(confirmed.get("source").get("pin").stringValue()).startsWith("************");
        assertThat(api.get("/collect/redemptions/" + id).send().json().get("status").stringValue()).isEqualTo("confirmed");
    }

    @Test
    void anEndpointReceivesOnlyTheTypesItSubscribedTo() {
        String endpointId = endpoint("[\"redemption.failed\"]").get("id").stringValue();
        String confirmed = redeem(validPin());
        String failed = redeem(pin("0003"));

        receiver.await(r -> !about(r, failed).isEmpty(), WAIT, "the failed event");

        assertThat(types(receiver.received())).containsExactly("redemption.failed");
        JsonNode data = receiver.received().getFirst().json().get("data");
        assertThat(data.get("status").stringValue()).isEqualTo("failed");
        assertThat(data.get("last_error").get("error_code").stringValue()).isEqualTo("BAD_REQUEST");
        // The confirmed redemption's events were relayed before the failed one's, and none was queued here.
        assertThat(jdbc.sql("""
                        select count(*) from webhook_deliveries d join outbox o on o.id = d.event_id
                        where d.endpoint_id = ? and o.type <> 'redemption.failed'""")
                .params(endpointId).query(Long.class).single()).isZero();
        assertThat(confirmed).isNotEqualTo(failed);
    }

    @Test
    void aReceiverThatFailsTwiceGetsTheRetriesWithTheSameWebhookIdAndEveryAttemptIsListed() {
        String endpointId = endpoint("[\"redemption.confirmed\"]").get("id").stringValue();
        Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        receiver.respond(r -> calls.computeIfAbsent(r.webhookId(), k -> new AtomicInteger()).incrementAndGet() <= 2 ? 500 : 200);
        String id = redeem(validPin());

        List<Received> received = receiver.await(r -> about(r, id).size() == 3, WAIT, "three attempts");
        String eventId = received.getFirst().webhookId();
        assertThat(received).allSatisfy(r -> {
            assertThat(r.webhookId()).isEqualTo(eventId);
            assertThat(r.signatureValid()).isTrue();
        });
        assertThat(received).extracting(r -> Long.parseLong(r.timestamp())).isSorted();

        JsonNode attempts = awaitAttempts(endpointId, 3);
        assertThat(attempts).extracting(a -> a.get("attempt").intValue()).containsExactly(3, 2, 1);
        assertThat(attempts).extracting(a -> a.get("status").stringValue()).containsExactly("succeeded", "failed", "failed");
        assertThat(attempts).extracting(a -> a.get("response_status").intValue()).containsExactly(200, 500, 500);
        assertThat(attempts).allSatisfy(a -> {
            assertThat(a.get("event_id").stringValue()).isEqualTo(eventId);
            assertThat(a.get("event_type").stringValue()).isEqualTo("redemption.confirmed");
            assertThat(a.get("id").stringValue()).matches("^wha_[a-f0-9]{24}$");
        });
        var onlyFailed = api.get("/webhook_endpoints/" + endpointId + "/deliveries?status=failed").send();
        assertThat(onlyFailed.json().get("data")).hasSize(2);
    }

    @Test
    void afterTheLastRetryTheDeliveryFailsAndARedeliveryOnRequestGetsThrough() {
        String endpointId = endpoint("[\"redemption.confirmed\"]").get("id").stringValue();
        receiver.respond(r -> 503);
        String id = redeem(validPin());

        // One attempt plus the three retries of the test schedule, then nothing more.
        receiver.await(r -> about(r, id).size() == 4, WAIT, "four attempts");
        String eventId = receiver.received().getFirst().webhookId();
        awaitDeliveryStatus(endpointId, eventId, "failed");
        assertThat(about(receiver.received(), id)).hasSize(4);

        receiver.respond(r -> 204);
        var redelivered = api.post("/events/" + eventId + "/redeliver", "{\"webhook_endpoint\":\"" + endpointId + "\"}").send();
        assertThat(redelivered.status()).as(redelivered.toString()).isEqualTo(202);
        assertThat(redelivered.json().get("id").stringValue()).isEqualTo(eventId);
        assertThat(redelivered.json().get("deliveries").get(0).get("webhook_endpoint_id").stringValue()).isEqualTo(endpointId);
        assertThat(redelivered.json().get("deliveries").get(0).get("status").stringValue()).isEqualTo("pending");

        receiver.await(r -> about(r, id).size() == 5, WAIT, "the redelivery");
        awaitDeliveryStatus(endpointId, eventId, "succeeded");
        JsonNode attempts = awaitAttempts(endpointId, 5);
        assertThat(attempts.get(0).get("attempt").intValue()).isEqualTo(5);
        assertThat(attempts.get(0).get("status").stringValue()).isEqualTo("succeeded");
    }

    @Test
    void redeliveryNeedsAnEventOfThisMerchantAndAnEndpointThatReceivesIt() {
        String id = redeem(validPin());
        String eventId = awaitEventOf(id);

        var noEndpoint = api.post("/events/" + eventId + "/redeliver", null).send();
        assertThat(noEndpoint.status()).isEqualTo(422);
        assertThat(noEndpoint.json().get("code").stringValue()).isEqualTo("operation_not_allowed");
        assertThat(merchants.create().test().post("/events/" + eventId + "/redeliver", null).send().status()).isEqualTo(404);
        assertThat(api.post("/events/evt_000000000000000000000000/redeliver", null).send().status()).isEqualTo(404);
        var badBody = api.post("/events/" + eventId + "/redeliver", "{\"webhook_endpoint\":\"nope\",\"x\":1}").send();
        assertThat(badBody.status()).isEqualTo(400);
        assertThat(badBody.json().get("errors")).hasSize(2);
    }

    @Test
    void a410AnswerDisablesTheEndpointAndReEnablingItResumesDelivery() {
        String endpointId = endpoint("[\"redemption.confirmed\"]").get("id").stringValue();
        receiver.respond(r -> 410);
        String first = redeem(validPin());

        receiver.await(r -> about(r, first).size() == 1, WAIT, "the first attempt");
        awaitEndpointStatus(endpointId, "disabled");
        JsonNode endpoint = api.get("/webhook_endpoints/" + endpointId).send().json();
        assertThat(endpoint.get("disabled_reason").stringValue()).isEqualTo("endpoint_gone");

        receiver.respond(r -> 200);
        var enabled = api.patch("/webhook_endpoints/" + endpointId, "{\"status\":\"enabled\"}").send();
        assertThat(enabled.status()).isEqualTo(200);
        receiver.await(r -> about(r, first).size() == 2, WAIT, "the event again after re-enabling");
        assertThat(about(receiver.received(), first)).extracting(Received::webhookId).containsOnly(
                receiver.received().getFirst().webhookId());
    }

    @Test
    void anAnswerSlowerThanTheTimeoutIsAFailedAttemptAndIsRetried() {
        String endpointId = endpoint("[\"redemption.confirmed\"]").get("id").stringValue();
        AtomicInteger calls = new AtomicInteger();
        receiver.respond(r -> {
            if (calls.incrementAndGet() == 1) {
                sleep(Duration.ofSeconds(4)); // the test timeout is 2 s
            }
            return 200;
        });
        String id = redeem(validPin());

        receiver.await(r -> about(r, id).size() >= 2, WAIT, "a retry after the timeout");
        JsonNode attempts = awaitAttempts(endpointId, 2);
        assertThat(attempts.get(1).get("status").stringValue()).isEqualTo("failed");
        assertThat(attempts.get(1).get("error").stringValue()).isEqualTo("timeout");
        assertThat(attempts.get(1).has("response_status")).isFalse();
        assertThat(attempts.get(0).get("status").stringValue()).isEqualTo("succeeded");
    }

    @Test
    void afterARotationDeliveriesVerifyWithTheOldSecretAndWithTheNewOne() {
        JsonNode created = endpoint("[\"redemption.confirmed\"]");
        String oldSecret = created.get("secret").stringValue();
        String endpointId = created.get("id").stringValue();
        String newSecret = api.post("/webhook_endpoints/" + endpointId + "/rotate_secret", null).send()
                .json().get("secret").stringValue();
        receiver.secrets(newSecret);
        String id = redeem(validPin());

        Received r = receiver.await(list -> about(list, id).size() == 1, WAIT, "the event").getFirst();
        assertThat(r.signature().split(" ")).hasSize(2);
        for (String secret : List.of(oldSecret, newSecret)) {
            assertThat(new StandardWebhooksVerifier(secret).verify(r.webhookId(), r.timestamp(), r.signature(), r.body(),
                    Instant.now())).as("verifies with " + (secret.equals(oldSecret) ? "old" : "new")).isTrue();
        }
    }

    /**
     * The overlap ends 24 h after the rotation. The rotation stores that instant with the endpoint
     * ({@code previous_secret_expires_at}), and each attempt compares it with its own clock; moving the stored instant
     * back by 24 h is exactly what 24 h passing would do to that comparison, without waiting for them.
     */
    @Test
    void theOldSecretStopsSigningWhenTheOverlapEnds24HoursAfterTheRotation() {
        JsonNode created = endpoint("[\"redemption.confirmed\"]");
        String oldSecret = created.get("secret").stringValue();
        String endpointId = created.get("id").stringValue();
        JsonNode rotated = api.post("/webhook_endpoints/" + endpointId + "/rotate_secret", null).send().json();
        String newSecret = rotated.get("secret").stringValue();
        Instant rotatedAt = Instant.parse(rotated.get("updated_at").stringValue());
        assertThat(Instant.parse(rotated.get("previous_secret_expires_at").stringValue()))
                .isEqualTo(rotatedAt.plus(Duration.ofHours(24)));
        receiver.secrets(newSecret);

        String during = redeem(validPin());
        Received signedByBoth = about(receiver.await(list -> about(list, during).size() == 1, WAIT, "the event"), during)
                .getFirst();
        assertThat(signedByBoth.signature().split(" ")).hasSize(2);
        assertThat(verifies(newSecret, signedByBoth)).as("new secret during the overlap").isTrue();
        assertThat(verifies(oldSecret, signedByBoth)).as("old secret during the overlap").isTrue();
        assertThat(api.get("/webhook_endpoints/" + endpointId).send().json().has("previous_secret_expires_at")).isTrue();

        int moved = jdbc.sql("update webhook_endpoints set previous_secret_expires_at = previous_secret_expires_at"
                + " - interval '24 hours' where id = ?").param(endpointId).update();
        assertThat(moved).isEqualTo(1);

        String after = redeem(validPin());
        Received signedByNew = about(receiver.await(list -> about(list, after).size() == 1, WAIT, "the event"), after)
                .getFirst();
        assertThat(signedByNew.signature().split(" ")).as(signedByNew.signature()).hasSize(1);
        assertThat(verifies(newSecret, signedByNew)).as("new secret after the overlap").isTrue();
        assertThat(verifies(oldSecret, signedByNew)).as("old secret after the overlap").isFalse();
        JsonNode shown = api.get("/webhook_endpoints/" + endpointId).send().json();
        assertThat(shown.has("previous_secret_expires_at")).as(shown.toString()).isFalse();
    }

    private static boolean verifies(String secret, Received r) {
        return new StandardWebhooksVerifier(secret).verify(r.webhookId(), r.timestamp(), r.signature(), r.body(),
                Instant.now());
    }

    @Test
    void theEventLogListsTheMerchantsEventsNewestFirstWithFiltersAndNoOneElsesEvents() {
        String confirmed = redeem(validPin());
        String failed = redeem(pin("0003"));

        var all = api.get("/events?limit=100").send();
        assertThat(all.status()).isEqualTo(200);
        List<String> subjects = new ArrayList<>();
        all.json().get("data").forEach(e -> subjects.add(e.get("data").get("id").stringValue() + " " + e.get("type").stringValue()));
        assertThat(subjects).containsExactly(failed + " redemption.failed", failed + " redemption.reserved",
                failed + " redemption.created", confirmed + " redemption.confirmed", confirmed + " redemption.reserved",
                confirmed + " redemption.created");

        var onlyFailed = api.get("/events?type=redemption.failed").send();
        assertThat(onlyFailed.json().get("data")).hasSize(1);
        var page = api.get("/events?limit=2").send();
        assertThat(page.json().get("has_more").booleanValue()).isTrue();
        String cursor = page.json().get("next_cursor").stringValue();
        assertThat(page.header("Next-Cursor")).isEqualTo(cursor);
        var next = api.get("/events?limit=2&cursor=" + cursor).send();
        assertThat(next.json().get("data").get(0).get("id").stringValue())
                .isEqualTo(all.json().get("data").get(2).get("id").stringValue());

        assertThat(api.get("/events?type=nope").send().status()).isEqualTo(400);
        assertThat(api.get("/events?colour=red").send().status()).isEqualTo(400);
        assertThat(merchants.create().test().get("/events").send().json().get("data")).isEmpty();
        assertThat(merchant.live().get("/events").send().json().get("data")).isEmpty();
        String eventId = all.json().get("data").get(0).get("id").stringValue();
        assertThat(merchant.live().get("/events/" + eventId).send().status()).isEqualTo(404);
        assertThat(merchants.create().test().get("/events/" + eventId).send().status()).isEqualTo(404);
    }

    private String awaitEventOf(String redemptionId) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            for (JsonNode e : api.get("/events?limit=100").send().json().get("data")) {
                if (e.get("data").get("id").stringValue().equals(redemptionId)) {
                    return e.get("id").stringValue();
                }
            }
            sleep(Duration.ofMillis(100));
        }
        throw new AssertionError("no event of " + redemptionId);
    }

    private JsonNode awaitAttempts(String endpointId, int count) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            JsonNode data = api.get("/webhook_endpoints/" + endpointId + "/deliveries").send().json().get("data");
            if (data.size() >= count || System.nanoTime() > deadline) {
                assertThat(data).hasSize(count);
                return data;
            }
            sleep(Duration.ofMillis(100));
        }
    }

    private void awaitDeliveryStatus(String endpointId, String eventId, String status) {
        awaitCondition(() -> status.equals(jdbc.sql("select status from webhook_deliveries where endpoint_id = ? and event_id = ?")
                .params(endpointId, eventId).query(String.class).optional().orElse(null)), "delivery " + status);
    }

    private void awaitEndpointStatus(String endpointId, String status) {
        awaitCondition(() -> status.equals(api.get("/webhook_endpoints/" + endpointId).send().json().get("status").stringValue()),
                "endpoint " + status);
    }

    private static void awaitCondition(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            sleep(Duration.ofMillis(100));
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }
}
