package io.tender.redemption;

import io.tender.idempotency.RequestFingerprint;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.tender.support.ProblemAssertions.assertProblem;
import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §1 "Authentication and tenancy": a key sees only its own merchant's objects of its own mode; anything
 * else is 404 (never 403), absent from lists, and an Idempotency-Key is scoped to (merchant, mode).
 */
class TenancyIT extends ApiIntegrationTest {

    private Merchant a;
    private Merchant b;
    private JsonNode aRedemption;
    private String aReference;

    @BeforeEach
    void twoMerchants() {
        a = merchants.create();
        b = merchants.create();
        aReference = "order-" + UUID.randomUUID();
        aRedemption = created(a.test().post("/collect/redemptions", "{\"type\":\"vouchers.one_voucher\",\"source\":"
                + "{\"pin\":\"" + validPin() + "\"},\"external_reference\":\"" + aReference + "\"}").send());
    }

    private static JsonNode created(Api.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json();
    }

    private String aId() {
        return aRedemption.get("id").stringValue();
    }

    @Test
    void anotherMerchantGets404ExactlyAsForAnIdThatDoesNotExist() {
        var foreign = b.test().get("/collect/redemptions/" + aId()).send();
        var missing = b.test().get("/collect/redemptions/rdm_000000000000000000000000").send();

        JsonNode foreignProblem = assertProblem(foreign, 404, "resource_not_found");
        JsonNode missingProblem = assertProblem(missing, 404, "resource_not_found");
        // Nothing in the answer tells a foreign id from a missing one.
        assertThat(foreignProblem.get("title")).isEqualTo(missingProblem.get("title"));
        assertThat(foreignProblem.get("detail")).isEqualTo(missingProblem.get("detail"));
        assertThat(foreign.text()).doesNotContain(a.id()).doesNotContain(aReference);
    }

    @Test
    void theSameMerchantsLiveKeyDoesNotSeeItsTestRedemptions() {
        assertProblem(a.live().get("/collect/redemptions/" + aId()).send(), 404, "resource_not_found");
        assertThat(ids(a.live(), "")).doesNotContain(aId());
        assertThat(ids(a.live(), "?external_reference=" + aReference)).isEmpty();
    }

    @Test
    void listsNeverShowAnotherMerchantsRedemptions() {
        String bId = created(b.test().post("/collect/redemptions", oneVoucher(validPin())).send()).get("id").stringValue();
        String aCreatedAt = aRedemption.get("created_at").stringValue();
        String before = Instant.parse(aCreatedAt).minusSeconds(60).toString();
        String after = Instant.parse(aCreatedAt).plusSeconds(60).toString();

        assertThat(ids(b.test(), "")).containsExactly(bId);
        assertThat(ids(b.test(), "?status=confirmed")).containsExactly(bId);
        assertThat(ids(b.test(), "?type=vouchers.one_voucher")).containsExactly(bId);
        assertThat(ids(b.test(), "?external_reference=" + aReference)).isEmpty();
        assertThat(ids(b.test(), "?created_at%5Bgte%5D=" + before + "&created_at%5Blt%5D=" + after)).containsExactly(bId);
        // A cursor past A's id does not reach into A's redemptions either.
        assertThat(ids(b.test(), "?cursor=rdm_ffffffffffffffffffffffff")).containsExactly(bId);
        assertThat(ids(b.test(), "?cursor=" + bId)).isEmpty();

        // And A's list is A's alone.
        assertThat(ids(a.test(), "")).containsExactly(aId());
    }

    @Test
    void anotherMerchantsIdempotencyKeyIsANewRequest() {
        String key = "shared-" + UUID.randomUUID();
        String body = oneVoucher(validPin());
        var first = a.test().post("/collect/redemptions", body).idempotencyKey(key).send();
        created(first);

        // Same key, same body, other merchant: not a replay of A's response; it runs (and finds the voucher used).
        var sameBody = b.test().post("/collect/redemptions", body).idempotencyKey(key).send();
        JsonNode bRedemption = created(sameBody);
        assertThat(sameBody.header("Idempotent-Replayed")).isNull();
        assertThat(bRedemption.get("id").stringValue()).isNotEqualTo(first.json().get("id").stringValue());
        assertThat(bRedemption.get("status").stringValue()).isEqualTo("failed");
        assertThat(bRedemption.get("last_error").get("error_code").stringValue()).isEqualTo("BAD_REQUEST");

        // Same key, other body, other merchant: not an idempotency conflict.
        String otherKey = "shared-" + UUID.randomUUID();
        created(a.test().post("/collect/redemptions", oneVoucher(validPin())).idempotencyKey(otherKey).send());
        var otherBody = b.test().post("/collect/redemptions", oneVoucher(validPin())).idempotencyKey(otherKey).send();
        assertThat(created(otherBody).get("status").stringValue()).isEqualTo("confirmed");

        // A's key still replays A's own response.
        var replay = a.test().post("/collect/redemptions", body).idempotencyKey(key).send();
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.bytes()).isEqualTo(first.bytes());
    }

    @Test
    void anIdempotencyKeyOfTheOtherModeIsNotSeen() {
        // Live mode cannot redeem here (no provider), so plant a completed live-mode key for the same request.
        String key = "mode-" + UUID.randomUUID();
        String body = oneVoucher(validPin());
        var fingerprint = RequestFingerprint.of("POST", "/collect/redemptions", "2026-06-01", Api.JSON.readTree(body));
        jdbc.sql("""
                        insert into idempotency_keys (merchant_id, mode, idempotency_key, method, path, api_version,
                            body_hash, state, response_status, response_type, response_body, created_at, completed_at)
                        values (?, 'live', ?, 'POST', '/collect/redemptions', '2026-06-01', ?, 'completed', 201,
                            'application/json', ?, now(), now())""")
                .params(a.id(), key, fingerprint.bodyHash(), new byte[64]).update();

        // The test-mode request with that key and body runs as a new request.
        var test = a.test().post("/collect/redemptions", body).idempotencyKey(key).send();
        assertThat(created(test).get("status").stringValue()).isEqualTo("confirmed");
        assertThat(test.header("Idempotent-Replayed")).isNull();
        assertThat(created(a.test().post("/collect/redemptions", body).idempotencyKey(key).send()))
                .isEqualTo(test.json());
    }

    private static List<String> ids(Api api, String query) {
        var response = api.get("/collect/redemptions" + query).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        response.json().get("data").forEach(r -> ids.add(r.get("id").stringValue()));
        return ids;
    }
}
