package io.tender.idempotency;

import io.tender.support.Api;
import io.tender.support.AtOnce;
import io.tender.support.SandboxHold;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.tender.auth.Caller;
import io.tender.auth.KeyKind;
import io.tender.auth.Mode;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

import static io.tender.support.ProblemAssertions.assertProblem;
import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.pin;
import static io.tender.support.Vouchers.providerC;
import static io.tender.support.Vouchers.token;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/** Spec create rule 1 and decisions §1 "Idempotency", over HTTP: replays, conflicts, concurrency, expiry and purge. */
class IdempotencyIT extends ApiIntegrationTest {

    private static final String PATH = "/collect/redemptions";

    @Autowired
    private IdempotencyKeys idempotencyKeys;

    @Autowired
    private TransactionTemplate tx;

    @Autowired
    private IdempotencyKeyPurge purge;

    @Autowired
    private DataSource database;

    private Merchant merchant;
    private Api api;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        api = merchant.test();
    }

    private Api.Response post(String key, String body) {
        return api.post(PATH, body).idempotencyKey(key).send();
    }

    private static String newKey() {
        return "key-" + UUID.randomUUID();
    }

    private long redemptionsWithKey(String key) {
        return jdbc.sql("select count(*) from redemptions where merchant_id = ? and idempotency_key = ?")
                .params(merchant.id(), key).query(Long.class).single();
    }

    private long providerCalls(String redemptionId) {
        return jdbc.sql("select count(*) from sandbox_operations where operation_key like ?")
                .param(redemptionId + ":%").query(Long.class).single();
    }

    private long events(String redemptionId) {
        return jdbc.sql("select count(*) from outbox where aggregateid = ?").param(redemptionId).query(Long.class).single();
    }

    private void backdate(String key, String interval) {
        int rows = jdbc.sql("update idempotency_keys set created_at = now() - cast(? as interval)"
                        + " where merchant_id = ? and idempotency_key = ?")
                .params(interval, merchant.id(), key).update();
        assertThat(rows).isEqualTo(1);
    }

    @Test
    void theSameKeyAndBodyReplayTheOriginalResponseByteForByte() {
        String key = newKey();
        String body = oneVoucher(validPin());
        var first = post(key, body);
        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        assertThat(first.header("Idempotent-Replayed")).isNull();
        String id = first.json().get("id").stringValue();

        for (int i = 0; i < 2; i++) {
            var replay = post(key, body);
            assertThat(replay.status()).isEqualTo(201);
            assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
            assertThat(replay.contentType()).isEqualTo(first.contentType());
            assertThat(replay.bytes()).isEqualTo(first.bytes());
        }
        // Replays did nothing: one redemption, its two provider calls and three events, as after the first request.
        assertThat(redemptionsWithKey(key)).isEqualTo(1);
        assertThat(providerCalls(id)).isEqualTo(2);
        assertThat(events(id)).isEqualTo(3);
    }

    @Test
    void propertyOrderAndWhitespaceDoNotMakeADifferentBody() {
        String key = newKey();
        String pin = validPin();
        var first = post(key, "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + pin + "\"},\"amount\":500,"
                + "\"currency\":\"ZAR\",\"metadata\":{\"a\":\"1\",\"b\":\"2\"}}");
        assertThat(first.status()).as(first.toString()).isEqualTo(201);

        var reordered = post(key, "{ \"metadata\" : {\"b\":\"2\", \"a\":\"1\"},\n \"currency\":\"ZAR\", \"amount\":500,"
                + " \"source\":{ \"pin\":\"" + pin + "\" }, \"type\":\"vouchers.one_voucher\" }");
        assertThat(reordered.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(reordered.bytes()).isEqualTo(first.bytes());
    }

    @Test
    void theSameKeyWithAnotherBodyIs409IdempotencyConflictAndChangesNothing() {
        String key = newKey();
        String pin = validPin();
        String body = oneVoucher(pin, 500);
        var first = post(key, body);
        assertThat(first.status()).as(first.toString()).isEqualTo(201);

        assertProblem(post(key, oneVoucher(validPin(), 500)), 409, "idempotency_conflict");
        assertProblem(post(key, oneVoucher(pin, 501)), 409, "idempotency_conflict");
        assertProblem(post(key, oneVoucher(pin)), 409, "idempotency_conflict");
        assertProblem(post(key, "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + pin + "\"},\"amount\":500,"
                + "\"currency\":\"ZAR\",\"metadata\":{\"a\":\"1\"}}"), 409, "idempotency_conflict");

        assertThat(redemptionsWithKey(key)).isEqualTo(1);
        // The conflicts were not stored under the key: the original still replays.
        var replay = post(key, body);
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.bytes()).isEqualTo(first.bytes());
    }

    @Test
    void aFailedRedemptionIsAResponseLikeAnyOtherAndReplays() {
        for (String suffix : List.of("0003", "0002")) {
            String key = newKey();
            String body = oneVoucher(pin(suffix));
            var first = post(key, body);
            assertThat(first.status()).isEqualTo(201);
            assertThat(first.json().get("status").stringValue()).isEqualTo("failed");

            var replay = post(key, body);
            assertThat(replay.status()).isEqualTo(201);
            assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
            assertThat(replay.bytes()).isEqualTo(first.bytes());
            assertThat(redemptionsWithKey(key)).isEqualTo(1);
        }
    }

    /** A stored answer coming back: the status and bytes of the first, marked as a replay. */
    private static void assertReplayOf(Api.Response first, Api.Response replay) {
        assertThat(replay.status()).as(replay.toString()).isEqualTo(first.status());
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.contentType()).isEqualTo(first.contentType());
        assertThat(replay.bytes()).isEqualTo(first.bytes());
    }

    @Test
    void a404ForAnUnknownRedemptionIsStoredUnderTheKeyAndReplayed() {
        String key = newKey();
        String path = PATH + "/rdm_" + "0123456789abcdef01234567" + "/confirm";
        var first = api.post(path, null).idempotencyKey(key).send();
        assertProblem(first, 404, "resource_not_found");
        assertThat(first.header("Idempotent-Replayed")).isNull();

        var replay = api.post(path, null).idempotencyKey(key).send();
        assertReplayOf(first, replay);
        // The key is taken by that answer: on another redemption's path it is a conflict, not a new request.
        assertProblem(api.post(PATH + "/rdm_" + "0123456789abcdef01234568" + "/confirm", null).idempotencyKey(key)
                .send(), 409, "idempotency_conflict");
    }

    @Test
    void a422FromALookupTheTypeCannotDoIsStoredUnderTheKeyAndReplayed() {
        String key = newKey();
        String body = oneVoucher(validPin());
        var first = api.post("/stored_value/lookup", body).idempotencyKey(key).send();
        assertProblem(first, 422, "operation_not_allowed");
        assertThat(first.header("Idempotent-Replayed")).isNull();

        assertReplayOf(first, api.post("/stored_value/lookup", body).idempotencyKey(key).send());
        // Stored means bound: the same key with a lookup the provider can do is a conflict, not a balance.
        assertProblem(api.post("/stored_value/lookup", providerC(token("7717"))).idempotencyKey(key).send(),
                409, "idempotency_conflict");
    }

    @Test
    void a409InvalidStateTransitionIsStoredUnderTheKeyAndReplayed() {
        // Without holds (this context's sandbox), a create ends confirmed: nothing is left for the client to confirm.
        var created = post(newKey(), oneVoucher(validPin()));
        assertThat(created.json().get("status").stringValue()).isEqualTo("confirmed");
        String id = created.json().get("id").stringValue();
        String key = newKey();

        var first = api.post(PATH + "/" + id + "/confirm", null).idempotencyKey(key).send();
        assertProblem(first, 409, "invalid_state_transition");
        assertThat(first.header("Idempotent-Replayed")).isNull();

        assertReplayOf(first, api.post(PATH + "/" + id + "/confirm", null).idempotencyKey(key).send());
        assertThat(providerCalls(id)).isEqualTo(2);
        assertThat(events(id)).isEqualTo(3);
    }

    @Test
    void aPatchWithAKeyReplaysItsAnswerWithoutApplyingItAgain() {
        var created = api.post("/billing/customers", "{\"external_reference\":\"patch-idem\",\"name\":\"Ada\","
                + "\"email\":\"ada@example.com\",\"currency\":\"ZAR\",\"balance\":1000}").send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String customer = "/billing/customers/" + created.json().get("id").stringValue();
        String key = newKey();

        var first = api.patch(customer, "{\"balance\":5000}").idempotencyKey(key).send();
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(first.header("Idempotent-Replayed")).isNull();
        assertThat(first.json().get("balance").longValue()).isEqualTo(5000);
        // Someone changes the balance since.
        var other = api.patch(customer, "{\"balance\":7000}").send();
        assertThat(other.status()).as(other.toString()).isEqualTo(200);

        var replay = api.patch(customer, "{ \"balance\" : 5000 }").idempotencyKey(key).send();
        assertReplayOf(first, replay);
        assertThat(replay.json().get("balance").longValue()).isEqualTo(5000);
        // The replay answered the old response and changed nothing: the balance is the later one.
        JsonNode stored = api.get(customer).send().json();
        assertThat(stored.get("balance").longValue()).isEqualTo(7000);
        assertThat(stored).isEqualTo(other.json());

        assertProblem(api.patch(customer, "{\"balance\":6000}").idempotencyKey(key).send(), 409, "idempotency_conflict");
        assertThat(api.get(customer).send().json()).isEqualTo(other.json());
    }

    @Test
    void keysOfOneAndOfTwoHundredCharactersAreAccepted() {
        for (String key : List.of("k", "k".repeat(200))) {
            String body = oneVoucher(validPin());
            var first = post(key, body);
            assertThat(first.status()).as(first.toString()).isEqualTo(201);
            assertThat(post(key, body).bytes()).isEqualTo(first.bytes());
        }
    }

    @Test
    void theKeyBelongsToTheMerchantAndModeNotToTheApiKey() {
        String key = newKey();
        String body = oneVoucher(validPin());
        var first = post(key, body);

        var secondKey = merchants.admin().post("/admin/merchants/" + merchant.name() + "/keys", "{\"kind\":\"sk_test\"}").send();
        assertThat(secondKey.status()).isEqualTo(201);
        var replay = api.as(secondKey.json().get("key").stringValue()).post(PATH, body).idempotencyKey(key).send();
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.bytes()).isEqualTo(first.bytes());
    }

    @Test
    void aKeyWhoseFirstRequestIsStillRunningIs409ConflictWithRetryAfter() {
        String key = newKey();
        String body = oneVoucher(validPin());
        // The state a request is in between claiming its key and storing its response.
        var fingerprint = RequestFingerprint.of("POST", PATH, "2026-06-01", Api.JSON.readTree(body));
        Caller caller = new Caller(merchant.id(), Mode.TEST, KeyKind.SK_TEST, "test");
        IdempotencyKeys.Claim claim = tx.execute(s -> idempotencyKeys.claim(caller, key, fingerprint, null));
        assertThat(claim).isInstanceOf(IdempotencyKeys.Claim.Claimed.class);

        var running = post(key, body);
        assertProblem(running, 409, "conflict");
        assertThat(running.header("Retry-After")).isEqualTo("1");
        // A different body is still told apart from a retry.
        assertProblem(post(key, oneVoucher(validPin())), 409, "idempotency_conflict");
        assertThat(redemptionsWithKey(key)).isZero();
    }

    @Test
    void concurrentIdenticalRequestsMakeOneRedemptionAndOneProviderCall() throws Exception {
        String key = newKey();
        // With an amount the sandbox redeems in a single call, so "one provider call" is exactly one row.
        String body = oneVoucher(validPin(), 1500);
        // The request that gets the key is held at the provider until the 23 others have answered.
        List<Api.Response> responses = AtOnce.sendWhileOneIsHeld(24, i -> post(key, body), SandboxHold.on(database));

        List<Api.Response> originals = responses.stream()
                .filter(r -> r.status() == 201 && r.header("Idempotent-Replayed") == null).toList();
        assertThat(originals).as("exactly one request ran").hasSize(1);
        Api.Response original = originals.getFirst();
        String id = original.json().get("id").stringValue();
        // Every other request came while it ran.
        for (Api.Response response : responses) {
            if (response == original) {
                continue;
            }
            assertProblem(response, 409, "conflict");
            assertThat(response.header("Retry-After")).isEqualTo("1");
        }
        assertThat(redemptionsWithKey(key)).isEqualTo(1);
        assertThat(providerCalls(id)).isEqualTo(1);
        assertThat(original.json().get("status").stringValue()).isEqualTo("confirmed");
        // Once the first finished, every retry is the replay.
        assertThat(post(key, body).bytes()).isEqualTo(original.bytes());
    }

    @Test
    void aKeyIsRememberedFor24HoursAndThenForgotten() {
        String key = newKey();
        String body = oneVoucher(validPin());
        var first = post(key, body);
        String firstId = first.json().get("id").stringValue();

        backdate(key, "23 hours");
        assertThat(post(key, body).header("Idempotent-Replayed")).isEqualTo("true");

        backdate(key, "25 hours");
        var anew = post(key, body);
        assertThat(anew.status()).isEqualTo(201);
        assertThat(anew.header("Idempotent-Replayed")).isNull();
        JsonNode second = anew.json();
        assertThat(second.get("id").stringValue()).isNotEqualTo(firstId);
        // It really ran: the voucher was used by the first request, so this one fails at the provider.
        assertThat(second.get("status").stringValue()).isEqualTo("failed");
        assertThat(second.get("last_error").get("error_code").stringValue()).isEqualTo("BAD_REQUEST");
        // And the key now replays the new response.
        assertThat(post(key, body).bytes()).isEqualTo(anew.bytes());
    }

    @Test
    void anExpiredKeyMayBeUsedWithAnotherBody() {
        String key = newKey();
        post(key, oneVoucher(validPin()));
        backdate(key, "25 hours");

        var other = post(key, oneVoucher(validPin()));
        assertThat(other.status()).as(other.toString()).isEqualTo(201);
        assertThat(other.json().get("status").stringValue()).isEqualTo("confirmed");
    }

    @Test
    void thePurgeDeletesCompletedKeysPastTheWindowOnly() {
        String expired = newKey();
        String fresh = newKey();
        String stuck = newKey();
        post(expired, oneVoucher(validPin()));
        post(fresh, oneVoucher(validPin()));
        backdate(expired, "25 hours");
        // A key whose request never finished (a crash) is evidence for recovery, not something to purge.
        jdbc.sql("""
                        insert into idempotency_keys (merchant_id, mode, idempotency_key, method, path, api_version,
                            body_hash, state, created_at) values (?, 'test', ?, 'POST', ?, '2026-06-01', ?, 'started', ?)""")
                .params(merchant.id(), stuck, PATH, new byte[32], OffsetDateTime.now(ZoneOffset.UTC).minusHours(30))
                .update();

        purge.purge();

        assertThat(keys()).containsExactlyInAnyOrder(fresh, stuck);
    }

    private List<String> keys() {
        return jdbc.sql("select idempotency_key from idempotency_keys where merchant_id = ?").param(merchant.id())
                .query(String.class).list();
    }
}
