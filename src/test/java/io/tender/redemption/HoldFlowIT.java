package io.tender.redemption;

import io.cloudevents.CloudEvent;
import io.cloudevents.SpecVersion;
import io.cloudevents.core.format.EventFormat;
import io.cloudevents.core.provider.EventFormatProvider;
import io.cloudevents.jackson.JsonFormat;
import io.tender.support.Api;
import io.tender.support.ChangePins;
import io.tender.support.LiveProvidersIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.tender.support.Vouchers.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Providers with a hold capability (here the sandbox's ott and provider_c, configured so): create stops at
 * {@code reserved}, and the client confirms or reverses, guarded by {@code If-Match}.
 */
class HoldFlowIT extends LiveProvidersIntegrationTest {

    private static final EventFormat CLOUD_EVENTS = Objects.requireNonNull(
            EventFormatProvider.getInstance().resolveFormat(JsonFormat.CONTENT_TYPE));

    private Merchant merchant;
    private Api api;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        api = merchant.test();
    }

    /** The redemption's outbox rows in order, each parsed as a CloudEvent (as RedemptionEventsIT reads them). */
    private List<CloudEvent> events(String redemptionId) {
        return jdbc.sql("select payload::text from outbox where aggregateid = ? order by created_at, id")
                .param(redemptionId)
                .query((rs, i) -> CLOUD_EVENTS.deserialize(rs.getString(1).getBytes(StandardCharsets.UTF_8)))
                .list();
    }

    private static List<String> types(List<CloudEvent> events) {
        return events.stream().map(CloudEvent::getType).toList();
    }

    private static JsonNode data(CloudEvent event) {
        return Api.JSON.readTree(Objects.requireNonNull(event.getData()).toBytes());
    }

    /** The envelope of decisions §2 "Events" for an event about this merchant's test-mode redemption. */
    private void assertEnvelope(CloudEvent event, String redemptionId) {
        assertThat(event.getSpecVersion()).isEqualTo(SpecVersion.V1);
        assertThat(event.getId()).matches("^evt_[a-f0-9]{24}$");
        assertThat(String.valueOf(event.getSource())).isEqualTo("/collect/redemption");
        assertThat(event.getSubject()).isEqualTo(redemptionId);
        assertThat(event.getDataContentType()).isEqualTo("application/json");
        assertThat(event.getExtension("merchantid")).isEqualTo(merchant.id());
        assertThat(event.getExtension("mode")).isEqualTo("test");
        assertThat(Objects.requireNonNull(event.getTime()).toInstant())
                .isEqualTo(Instant.parse(data(event).get("updated_at").stringValue()));
    }

    /** A released hold as decisions §2 and docs/DECISIONS.md "Holds" describe it, in a response or an event. */
    private static void assertReleasedHold(JsonNode r, String token) {
        assertThat(r.get("status").stringValue()).isEqualTo("failed");
        assertThat(r.get("version").intValue()).isEqualTo(3);
        assertThat(r.get("reserved_amount").longValue()).isEqualTo(20000);
        assertThat(r.get("reversed_amount").longValue()).isEqualTo(20000);
        assertThat(r.has("redeemed_amount")).isFalse();
        assertThat(r.has("last_error")).isFalse();
        assertThat(r.get("source").get("token").stringValue())
                .isEqualTo("*".repeat(token.length() - 4) + token.substring(token.length() - 4));
        assertThat(r.get("operations")).hasSize(2);
        JsonNode reverse = r.get("operations").get(1);
        assertThat(reverse.get("type").stringValue()).isEqualTo("reverse");
        assertThat(reverse.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(reverse.get("amount").longValue()).isEqualTo(20000);
        assertThat(reverse.has("error")).isFalse();
    }

    private JsonNode reserved(String body) {
        var response = api.post("/collect/redemptions", body).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json();
    }

    private static String providerC(String token) {
        return "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\"" + token + "\"}}";
    }

    @Test
    void createStopsAtReservedWithTheFullValueHeld() {
        JsonNode r = reserved(providerC(token("1117")));

        assertThat(r.get("status").stringValue()).isEqualTo("reserved");
        assertThat(r.get("version").intValue()).isEqualTo(2);
        assertThat(r.get("reserved_amount").longValue()).isEqualTo(20000);
        assertThat(r.has("redeemed_amount")).isFalse();
        assertThat(r.get("operations")).hasSize(1);
        assertThat(r.get("operations").get(0).get("type").stringValue()).isEqualTo("reserve");

        var fetched = api.get("/collect/redemptions/" + r.get("id").stringValue()).send();
        assertThat(fetched.header("ETag")).isEqualTo("\"2\"");
    }

    @Test
    void confirmingWithTheCurrentVersionCapturesTheHold() {
        String id = reserved(providerC(token("2217"))).get("id").stringValue();

        var response = api.post("/collect/redemptions/" + id + "/confirm", null).header("If-Match", "\"2\"").send();

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        JsonNode r = response.json();
        assertThat(r.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(r.get("version").intValue()).isEqualTo(3);
        assertThat(r.get("redeemed_amount").longValue()).isEqualTo(20000);
        assertThat(r.get("operations").get(1).get("type").stringValue()).isEqualTo("confirm");
        assertThat(r.has("change_voucher")).isFalse();
    }

    @Test
    void confirmingPartOfAHoldReturnsAChangeVoucherForTheRest() {
        String id = reserved(providerC(token("3317"))).get("id").stringValue();

        JsonNode r = api.post("/collect/redemptions/" + id + "/confirm", "{\"amount\":5000}").send().json();

        assertThat(r.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(r.get("amount").longValue()).isEqualTo(20000);
        assertThat(r.get("redeemed_amount").longValue()).isEqualTo(5000);
        String change = r.get("change_voucher").get("pin").stringValue();
        var balance = api.post("/stored_value/lookup", providerC(change)).send().json();
        assertThat(balance.get("balance").longValue()).isEqualTo(15000);
        // Only the confirm that made it shows the change voucher's PIN in full; a later read masks it.
        var fetched = api.get("/collect/redemptions/" + id).send();
        assertThat(fetched.json()).isEqualTo(ChangePins.maskedLater(r));
        assertThat(fetched.text()).doesNotContain(change);
    }

    @Test
    void reversingReleasesTheHoldAndTheVoucherCanBeRedeemedAgain() {
        String token = token("4417");
        String id = reserved(providerC(token)).get("id").stringValue();

        var response = api.post("/collect/redemptions/" + id + "/reverse", null).header("If-Match", "2").send();

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        JsonNode r = response.json();
        assertThat(r.get("status").stringValue()).isEqualTo("failed");
        assertThat(r.get("version").intValue()).isEqualTo(3);
        assertThat(r.get("reversed_amount").longValue()).isEqualTo(20000);
        assertThat(r.has("last_error")).isFalse();
        assertThat(r.get("operations").get(1).get("type").stringValue()).isEqualTo("reverse");
        assertThat(r.get("operations").get(1).get("status").stringValue()).isEqualTo("succeeded");

        JsonNode again = reserved(providerC(token));
        var confirmed = api.post("/collect/redemptions/" + again.get("id").stringValue() + "/confirm", null).send().json();
        assertThat(confirmed.get("status").stringValue()).isEqualTo("confirmed");
    }

    @Test
    void aClientReverseWritesExactlyOneReversedEventCarryingTheRedemptionAsTheApiShowsIt() {
        String token = token("4427");
        String id = reserved(providerC(token)).get("id").stringValue();

        var response = api.post("/collect/redemptions/" + id + "/reverse", null).header("If-Match", "2").send();
        assertThat(response.status()).as(response.toString()).isEqualTo(200);

        List<CloudEvent> events = events(id);
        // Released, not declined: no redemption.failed, however the status reads.
        assertThat(types(events)).containsExactly("redemption.created", "redemption.reserved", "redemption.reversed");
        events.forEach(e -> assertEnvelope(e, id));
        JsonNode reversed = data(events.get(2));
        assertReleasedHold(reversed, token);
        assertThat(reversed).isEqualTo(response.json()).isEqualTo(api.get("/collect/redemptions/" + id).send().json());
        for (CloudEvent event : events) {
            assertThat(new String(Objects.requireNonNull(event.getData()).toBytes(), StandardCharsets.UTF_8))
                    .doesNotContain(token);
        }
    }

    @Test
    void aClientConfirmOfAHoldWritesAConfirmedEventWithTheChangeVoucherPinMasked() {
        String token = token("2227");
        String id = reserved(providerC(token)).get("id").stringValue();

        var response = api.post("/collect/redemptions/" + id + "/confirm", "{\"amount\":5000}")
                .header("If-Match", "2").send();
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        String changePin = response.json().get("change_voucher").get("pin").stringValue();

        List<CloudEvent> events = events(id);
        assertThat(types(events)).containsExactly("redemption.created", "redemption.reserved", "redemption.confirmed");
        events.forEach(e -> assertEnvelope(e, id));
        JsonNode confirmed = data(events.get(2));
        assertThat(confirmed.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(confirmed.get("version").intValue()).isEqualTo(3);
        assertThat(confirmed.get("redeemed_amount").longValue()).isEqualTo(5000);
        String maskedChange = confirmed.get("change_voucher").get("pin").stringValue();
        assertThat(maskedChange).isEqualTo("*".repeat(changePin.length() - 4) + changePin.substring(changePin.length() - 4));
        // Apart from that PIN, it is the redemption as the API shows it.
        ObjectNode shown = (ObjectNode) api.get("/collect/redemptions/" + id).send().json();
        ((ObjectNode) shown.get("change_voucher")).put("pin", maskedChange);
        assertThat(confirmed).isEqualTo(shown);
        for (CloudEvent event : events) {
            assertThat(new String(Objects.requireNonNull(event.getData()).toBytes(), StandardCharsets.UTF_8))
                    .doesNotContain(token).doesNotContain(changePin);
        }
    }

    @Test
    void aStaleIfMatchIsAConflictAndChangesNothing() {
        String id = reserved(providerC(token("5517"))).get("id").stringValue();

        var stale = api.post("/collect/redemptions/" + id + "/confirm", null).header("If-Match", "1").send();

        assertThat(stale.status()).isEqualTo(409);
        assertThat(stale.json().get("code").stringValue()).isEqualTo("conflict");
        assertThat(api.get("/collect/redemptions/" + id).send().json().get("status").stringValue()).isEqualTo("reserved");
        assertThat(api.post("/collect/redemptions/" + id + "/confirm", null).header("If-Match", "soon").send().status())
                .isEqualTo(400);
    }

    @Test
    void onlyAReservedRedemptionCanBeConfirmedOrReversed() {
        String id = reserved(providerC(token("6617"))).get("id").stringValue();
        assertThat(api.post("/collect/redemptions/" + id + "/confirm", null).send().status()).isEqualTo(200);

        var confirmAgain = api.post("/collect/redemptions/" + id + "/confirm", null).send();
        var reverse = api.post("/collect/redemptions/" + id + "/reverse", null).send();

        assertThat(confirmAgain.status()).isEqualTo(409);
        assertThat(confirmAgain.json().get("code").stringValue()).isEqualTo("invalid_state_transition");
        assertThat(reverse.json().get("code").stringValue()).isEqualTo("invalid_state_transition");
        assertThat(api.post("/collect/redemptions/rdm_000000000000000000000000/confirm", null).send().status())
                .isEqualTo(404);
    }

    @Test
    void aHoldlessRedemptionIsNeverWaitingForTheClient() {
        var oneVoucher = api.post("/collect/redemptions", io.tender.support.Vouchers.oneVoucher(
                io.tender.support.Vouchers.validPin())).send().json();

        var response = api.post("/collect/redemptions/" + oneVoucher.get("id").stringValue() + "/reverse", null).send();
        assertThat(response.status()).isEqualTo(409);
    }

    @Test
    void confirmValidatesItsBodyAndTheAmountAgainstTheHold() {
        String id = reserved(providerC(token("7717"))).get("id").stringValue();

        assertThat(api.post("/collect/redemptions/" + id + "/confirm", "{\"amount\":0}").send().status()).isEqualTo(400);
        assertThat(api.post("/collect/redemptions/" + id + "/confirm", "{\"amount\":20001}").send().status()).isEqualTo(400);
        assertThat(api.post("/collect/redemptions/" + id + "/confirm", "{\"foo\":1}").send().status()).isEqualTo(400);
        assertThat(api.post("/collect/redemptions/" + id + "/reverse", "{\"amount\":1}").send().status()).isEqualTo(400);
        assertThat(api.get("/collect/redemptions/" + id).send().json().get("version").intValue()).isEqualTo(2);
    }

    @Test
    void aConfirmWithAnIdempotencyKeyReplaysAndIsNeverSentTwice() {
        String id = reserved(providerC(token("8817"))).get("id").stringValue();

        var first = api.post("/collect/redemptions/" + id + "/confirm", null).idempotencyKey("confirm-" + id).send();
        var replay = api.post("/collect/redemptions/" + id + "/confirm", null).idempotencyKey("confirm-" + id).send();

        assertThat(first.status()).isEqualTo(200);
        assertThat(replay.bytes()).isEqualTo(first.bytes());
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(jdbc.sql("select count(*) from sandbox_operations where operation_key like ?")
                .param(id + ":confirm%").query(Integer.class).single()).isEqualTo(1);
    }

    @Test
    void ofAConfirmAndAReverseRacingForOneHoldExactlyOneWins() throws Exception {
        String id = reserved(providerC(token("9917"))).get("id").stringValue();
        var start = new CountDownLatch(1);
        List<Future<Api.Response>> responses = new ArrayList<>();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (String action : List.of("confirm", "reverse", "confirm", "reverse")) {
                responses.add(pool.submit(() -> {
                    start.await();
                    return api.post("/collect/redemptions/" + id + "/" + action, null).send();
                }));
            }
            start.countDown();
        }
        List<Integer> statuses = new ArrayList<>();
        for (var response : responses) {
            statuses.add(response.get().status());
        }
        assertThat(statuses).containsOnlyOnce(200).containsOnly(200, 409);
        JsonNode r = api.get("/collect/redemptions/" + id).send().json();
        assertThat(r.get("status").stringValue()).isIn("confirmed", "failed");
        assertThat(r.get("operations")).hasSize(2);
    }

    @Test
    void aHoldNobodyConfirmsIsReleasedAfterItsTimeToLive() {
        String token = token("1027");
        String id = reserved(providerC(token)).get("id").stringValue();

        // Time passes beyond the reservation TTL (one hour here).
        jdbc.sql("update redemptions set updated_at = updated_at - interval '2 hours' where id = ?").param(id).update();

        await().atMost(Duration.ofSeconds(30)).until(() ->
                api.get("/collect/redemptions/" + id).send().json().get("status").stringValue().equals("failed"));
        JsonNode r = api.get("/collect/redemptions/" + id).send().json();
        // Released as a client reverse would have: the reverse succeeded, no error, version 1 + 2 succeeded operations.
        assertReleasedHold(r, token);
        List<CloudEvent> events = events(id);
        assertThat(types(events)).containsExactly("redemption.created", "redemption.reserved", "redemption.reversed");
        events.forEach(e -> assertEnvelope(e, id));
        assertThat(data(events.get(2))).isEqualTo(r);
    }
}
