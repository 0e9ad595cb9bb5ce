package io.tender.redemption;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.tender.support.Api;
import io.tender.support.LiveProvidersIntegrationTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.moreThanOrExactly;
import static com.github.tomakehurst.wiremock.client.WireMock.notFound;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static io.tender.support.Vouchers.digits;
import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static io.tender.redemption.RedemptionAssertions.assertFailedAtReserve;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Live-mode redemptions against a provider that misbehaves (WireMock). Each fault after sending is an unknown
 * outcome that is resolved by asking the provider for the call's status, never reported as a decline; a call that
 * was never sent is a transport error. The provider's answers on these paths quote the voucher's PIN, as real ones
 * do in their messages, and the log lines the faults cause are captured: no PIN, token or provider credential
 * reaches one.
 */
@ExtendWith(OutputCaptureExtension.class)
class ProviderFaultsIT extends LiveProvidersIntegrationTest {

    private static final String RESERVED = "{\"result\":\"approved\",\"amount\":10000,\"currency\":\"ZAR\",\"reference\":{\"pin\":\"************4447\"}}";
    private static final String CONFIRMED = "{\"result\":\"approved\",\"amount\":10000,\"currency\":\"ZAR\",\"reference\":{\"serial_number\":\"778899\"}}";
    private static final String REVERSED = "{\"result\":\"approved\",\"amount\":10000,\"currency\":\"ZAR\",\"reference\":{\"reversal_reference\":\"r-1\"}}";

    /** The live providers' credential in this context ({@code tender.providers.live.api-key}). */
    private static final String CREDENTIAL = "Bearer provider-secret";

    private Api live;
    /** This test's voucher; the provider's failing answers quote it. */
    private String pin;
    /** Every PIN, token and credential this test sent: none may appear in the log output. */
    private final List<String> secrets = new ArrayList<>(List.of("provider-secret"));

    @BeforeEach
    void merchant() {
        live = merchants.create().live();
        pin = secret(validPin());
        // Anything not stubbed is answered too (404, as WireMock's own default), so that WireMock never prints an
        // unmatched request's body (with its PIN) into the captured output.
        PROVIDER.stubFor(any(anyUrl()).atPriority(100).willReturn(notFound()));
        PROVIDER.stubFor(post("/one_voucher/reserve").willReturn(okJson(RESERVED)));
        // Should a reserve answer be slow on a loaded machine, its status tells the truth (WireMock's default 404
        // would say "never received" about a call it did receive).
        PROVIDER.stubFor(get(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)reserve"))
                .atPriority(10).willReturn(okJson(RESERVED)));
    }

    @AfterEach
    void noSecretReachedALogLine(CapturedOutput output) {
        String logs = output.getAll();
        for (String secret : secrets) {
            assertThat(logs).as("log output").doesNotContain(secret);
        }
    }

    private String secret(String value) {
        secrets.add(value);
        return value;
    }

    /** A failing answer whose text quotes the PIN. */
    private ResponseDefinitionBuilder failing(int status) {
        return aResponse().withStatus(status).withHeader("Content-Type", "application/json")
                .withBody("{\"message\":\"Voucher " + pin + " could not be processed\"}");
    }

    private JsonNode created(String key) {
        var response = live.post("/collect/redemptions", oneVoucher(pin)).idempotencyKey(key).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json();
    }

    private static void statusOfConfirm(ResponseDefinitionBuilder answer) {
        PROVIDER.stubFor(get(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)confirm")).willReturn(answer));
    }

    @Test
    void aConfirmThatTimesOutAfterTheProviderRedeemedEndsConfirmed() {
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(okJson(CONFIRMED).withFixedDelay(4000)));
        statusOfConfirm(okJson(CONFIRMED));

        JsonNode r = created("timeout-1");

        assertThat(r.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(r.get("version").intValue()).isEqualTo(3);
        assertThat(r.get("redeemed_amount").longValue()).isEqualTo(10000);
        assertThat(r.get("provider_reference").get("serial_number").stringValue()).isEqualTo("778899");
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/one_voucher/confirm")));
    }

    @Test
    void everyCallCarriesItsOperationKeyAndTheProviderCredential() {
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(okJson(CONFIRMED)));

        String id = created("keys-1").get("id").stringValue();

        PROVIDER.verify(postRequestedFor(urlEqualTo("/one_voucher/reserve"))
                .withHeader("Idempotency-Key", equalTo(id + ":reserve"))
                .withHeader("Authorization", equalTo(CREDENTIAL))
                .withRequestBody(matchingJsonPath("$.operation_key", equalTo(id + ":reserve"))));
        PROVIDER.verify(postRequestedFor(urlEqualTo("/one_voucher/confirm"))
                .withHeader("Idempotency-Key", equalTo(id + ":confirm"))
                .withHeader("Authorization", equalTo(CREDENTIAL))
                .withRequestBody(matchingJsonPath("$.reservation_key", equalTo(id + ":reserve"))));
    }

    /** Only a call that carries the credential gets an answer; any other is a 401, as from a real provider. */
    private static MappingBuilder authorized(MappingBuilder call) {
        return call.withHeader("Authorization", equalTo(CREDENTIAL));
    }

    @Test
    void everyKindOfCallCarriesTheProviderCredentialAndTheProviderChecksIt() {
        PROVIDER.resetAll();
        PROVIDER.stubFor(any(anyUrl()).atPriority(100).willReturn(aResponse().withStatus(401)));
        PROVIDER.stubFor(authorized(post("/one_voucher/reserve")).willReturn(okJson(RESERVED)));
        PROVIDER.stubFor(authorized(get(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)reserve")))
                .willReturn(okJson(RESERVED)));
        // A confirm answered 503 is settled by its status, which only an authorized status query learns.
        PROVIDER.stubFor(authorized(post("/one_voucher/confirm")).willReturn(failing(503)));
        PROVIDER.stubFor(authorized(get(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)confirm")))
                .willReturn(okJson(CONFIRMED)));

        assertThat(created("credential-status").get("status").stringValue()).isEqualTo("confirmed");

        // A confirm whose outcome stays unknown is reversed after giving up; only an authorized reversal ends it.
        pin = secret(validPin());
        PROVIDER.stubFor(authorized(get(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)confirm")))
                .willReturn(failing(503)));
        PROVIDER.stubFor(authorized(post("/one_voucher/reverse")).willReturn(okJson(REVERSED)));

        assertThat(failedAfterGivingUp("credential-reverse").get("reversed_amount").longValue()).isEqualTo(10000);

        // A balance lookup (ott has one) answers only if authorized.
        PROVIDER.stubFor(authorized(post("/ott/lookup"))
                .willReturn(okJson("{\"result\":\"balance\",\"balance\":5000,\"currency\":\"ZAR\"}")));
        var balance = live.post("/stored_value/lookup", "{\"type\":\"vouchers.ott\",\"source\":{\"pin\":\""
                + secret("T" + digits(11) + "7") + "\",\"phone_number\":\"+27821234567\"}}").send();
        assertThat(balance.status()).as(balance.toString()).isEqualTo(200);
        assertThat(balance.json().get("balance").longValue()).isEqualTo(5000);

        for (var call : List.of(postRequestedFor(urlEqualTo("/one_voucher/reserve")),
                postRequestedFor(urlEqualTo("/one_voucher/confirm")),
                getRequestedFor(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)confirm")),
                postRequestedFor(urlEqualTo("/one_voucher/reverse")),
                postRequestedFor(urlEqualTo("/ott/lookup")))) {
            PROVIDER.verify(moreThanOrExactly(1), call.withHeader("Authorization", equalTo(CREDENTIAL)));
        }
        assertThat(PROVIDER.getAllServeEvents()).isNotEmpty().allSatisfy(e ->
                assertThat(e.getRequest().getHeader("Authorization")).as(e.getRequest().getMethod() + " "
                        + e.getRequest().getUrl()).isEqualTo(CREDENTIAL));
    }

    @Test
    void aResetConfirmTheProviderNeverReceivedFailsWithATransportError() {
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        statusOfConfirm(notFound());

        JsonNode r = created("reset-1");

        assertThat(r.get("status").stringValue()).isEqualTo("failed");
        assertThat(r.get("version").intValue()).isEqualTo(2);
        JsonNode confirm = r.get("operations").get(1);
        assertThat(confirm.get("status").stringValue()).isEqualTo("failed");
        assertThat(confirm.get("error").get("error_code").stringValue()).isEqualTo("one_voucher.transport_error");
        assertThat(r.get("last_error").get("error_code").stringValue()).isEqualTo("one_voucher.transport_error");
    }

    @Test
    void anEmptyReserveAnswerTakesTheProvidersDeclineFromTheStatus() {
        PROVIDER.stubFor(post("/one_voucher/reserve").willReturn(aResponse().withFault(Fault.EMPTY_RESPONSE)));
        PROVIDER.stubFor(get(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)reserve")).willReturn(aResponse()
                .withStatus(200).withBody("{\"result\":\"declined\",\"error_code\":\"one_voucher.2402\",\"message\":\"Voucher " + pin + " could not be found\"}")));

        JsonNode r = created("empty-1");

        assertThat(r.get("status").stringValue()).isEqualTo("failed");
        assertThat(r.get("operations")).hasSize(1);
        assertThat(r.get("last_error").get("error_code").stringValue()).isEqualTo("one_voucher.2402");
    }

    @Test
    void aMalformedConfirmAnswerIsNeverTrustedAndTheStatusDecides() {
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(aResponse().withStatus(200).withBody("{\"message\":\"" + pin + "\",\"result\":\"approv")));
        statusOfConfirm(okJson(CONFIRMED));

        JsonNode r = created("malformed-1");

        assertThat(r.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(r.get("redeemed_amount").longValue()).isEqualTo(10000);
    }

    @Test
    void anAnswerOutsideTheProtocolIsNeverAFiveHundred() {
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(okJson("{\"result\":\"approved\",\"amount\":\"lots\",\"message\":\"" + pin + "\"}")));
        statusOfConfirm(notFound());

        JsonNode r = created("garbage-1");

        assertThat(r.get("status").stringValue()).isEqualTo("failed");
        assertThat(r.get("last_error").get("error_code").stringValue()).isEqualTo("one_voucher.transport_error");
    }

    @Test
    void aServerErrorOnAConfirmTheProviderNeverReceivedFailsWithATransportError(CapturedOutput output) {
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(failing(500)));
        statusOfConfirm(notFound());

        JsonNode r = created("500-1");

        assertThat(r.get("status").stringValue()).isEqualTo("failed");
        assertThat(r.get("last_error").get("error_code").stringValue()).isEqualTo("one_voucher.transport_error");
        // The capture is live: the fault's WARN line is in it (and, checked after each test, the PIN is not).
        assertThat(output.getAll()).contains("Outcome of a call to one_voucher is unclear: answered HTTP 500");
    }

    @Test
    void aServiceUnavailableWhoseStatusIsAlsoUnknownAnswers504AndRecoveryFinishesIt() {
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(failing(503)));
        PROVIDER.stubFor(get(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)confirm"))
                .inScenario("late").whenScenarioStateIs(Scenario.STARTED)
                .willReturn(failing(503)));

        String body = oneVoucher(pin);
        var first = live.post("/collect/redemptions", body).idempotencyKey("503-1").send();

        assertThat(first.status()).as(first.toString()).isEqualTo(504);
        assertThat(first.json().get("code").stringValue()).isEqualTo("request_timeout");
        String id = first.json().get("detail").stringValue().replaceAll(".*(rdm_[a-f0-9]{24}).*", "$1");
        var meanwhile = live.get("/collect/redemptions/" + id).send().json();
        assertThat(meanwhile.get("status").stringValue()).isEqualTo("reserved");
        // An operator reading the row sees that the confirm went out and value may have moved: unknown, not pending.
        assertThat(jdbc.sql("select o ->> 'status' from redemptions, jsonb_array_elements(operations) o"
                + " where id = ? and o ->> 'type' = 'CONFIRM'").param(id).query(String.class).single())
                .isEqualTo("UNKNOWN");
        var retry = live.post("/collect/redemptions", body).idempotencyKey("503-1").send();
        assertThat(retry.status()).isEqualTo(409);
        assertThat(retry.json().get("code").stringValue()).isEqualTo("conflict");
        assertThat(retry.header("Retry-After")).isEqualTo("1");

        // The provider learns its answer; the recovery job asks again and finishes the redemption.
        PROVIDER.stubFor(get(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)confirm"))
                .inScenario("late").whenScenarioStateIs(Scenario.STARTED)
                .willReturn(okJson(CONFIRMED)));
        await().atMost(Duration.ofSeconds(30)).until(() ->
                live.get("/collect/redemptions/" + id).send().json().get("status").stringValue().equals("confirmed"));

        // The key now replays the final answer, the one the first request would have given.
        var replay = live.post("/collect/redemptions", body).idempotencyKey("503-1").send();
        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.json().get("id").stringValue()).isEqualTo(id);
        assertThat(replay.json().get("status").stringValue()).isEqualTo("confirmed");
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/one_voucher/confirm")));
    }

    /**
     * Leaves a redemption the way a request leaves it when it dies after the reserve answered and before it wrote
     * anything else (the reserve still pending): here the reserve's answer never arrives and its status is unknown,
     * so the request gives up with 504. Then the provider knows the reserve.
     */
    private String reservePendingAsAfterACrash(String key, String body) {
        PROVIDER.stubFor(post("/one_voucher/reserve").willReturn(okJson(RESERVED).withFixedDelay(2000)));
        PROVIDER.stubFor(get(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)reserve"))
                .willReturn(failing(503)));
        var first = live.post("/collect/redemptions", body).idempotencyKey(key).send();
        assertThat(first.status()).as(first.toString()).isEqualTo(504);
        PROVIDER.stubFor(get(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)reserve"))
                .willReturn(okJson(RESERVED)));
        return first.json().get("detail").stringValue().replaceAll(".*(rdm_[a-f0-9]{24}).*", "$1");
    }

    @Test
    void aConfirmADeadRequestMayHaveSentIsAskedAfterAndNeverSentAgainUnderItsKey() {
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(okJson(CONFIRMED)));
        statusOfConfirm(okJson(CONFIRMED));

        String id = reservePendingAsAfterACrash("sent-confirm-1", oneVoucher(pin));

        // The dead request's confirm got through: the recovery job learns its answer by asking, and sends nothing.
        await().atMost(Duration.ofSeconds(30)).until(() ->
                live.get("/collect/redemptions/" + id).send().json().get("status").stringValue().equals("confirmed"));
        JsonNode r = live.get("/collect/redemptions/" + id).send().json();
        assertThat(r.get("version").intValue()).isEqualTo(3);
        assertThat(r.get("redeemed_amount").longValue()).isEqualTo(10000);
        PROVIDER.verify(0, postRequestedFor(urlEqualTo("/one_voucher/confirm")));
        PROVIDER.verify(1, getRequestedFor(urlPathMatching("/one_voucher/operations/" + id + "(:|%3A)confirm")));
    }

    @Test
    void aConfirmADeadRequestNeverSentIsSentByTheRecoveryJobUnderAFreshKeyAndTheKeyReplaysTheFinalState() {
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(okJson(CONFIRMED)));
        statusOfConfirm(notFound());

        String body = oneVoucher(pin);
        String id = reservePendingAsAfterACrash("unsent-confirm-1", body);

        // The provider never received <id>:confirm; asking fenced that key, so the confirm goes under <id>:confirm~2.
        await().atMost(Duration.ofSeconds(30)).until(() ->
                live.get("/collect/redemptions/" + id).send().json().get("status").stringValue().equals("confirmed"));
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/one_voucher/confirm")));
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/one_voucher/confirm"))
                .withRequestBody(matchingJsonPath("$.operation_key", equalTo(id + ":confirm~2"))));
        var replay = live.post("/collect/redemptions", body).idempotencyKey("unsent-confirm-1").send();
        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        JsonNode r = replay.json();
        assertThat(r.get("id").stringValue()).isEqualTo(id);
        assertThat(r.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(r.get("operations")).hasSize(2);
        assertThat(r.get("operations").get(1).get("type").stringValue()).isEqualTo("confirm");
        assertThat(r.get("operations").get(1).get("status").stringValue()).isEqualTo("succeeded");
    }

    /**
     * A create whose confirm stays unknown (the request answers 504); then time passes beyond give-up-after (one hour
     * here) and the recovery job ends the redemption. Returns it as it ends.
     */
    private JsonNode failedAfterGivingUp(String key) {
        var first = live.post("/collect/redemptions", oneVoucher(pin)).idempotencyKey(key).send();
        assertThat(first.status()).as(first.toString()).isEqualTo(504);
        String id = first.json().get("detail").stringValue().replaceAll(".*(rdm_[a-f0-9]{24}).*", "$1");

        jdbc.sql("update redemptions set created_at = created_at - interval '2 hours' where id = ?").param(id).update();
        await().atMost(Duration.ofSeconds(30)).until(() ->
                live.get("/collect/redemptions/" + id).send().json().get("status").stringValue().equals("failed"));
        return live.get("/collect/redemptions/" + id).send().json();
    }

    @Test
    void anOutcomeThatStaysUnknownIsReversedAfterGivingUpAndOnlyThenReportedFailed() {
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        statusOfConfirm(failing(503));
        PROVIDER.stubFor(post("/one_voucher/reverse").willReturn(okJson(REVERSED)));

        JsonNode r = failedAfterGivingUp("giveup-1");
        String id = r.get("id").stringValue();

        assertThat(r.get("reversed_amount").longValue()).as(r.toString()).isEqualTo(10000);
        JsonNode operations = r.get("operations");
        assertThat(operations).hasSize(3);
        assertThat(operations.get(1).get("type").stringValue()).isEqualTo("confirm");
        assertThat(operations.get(1).get("status").stringValue()).isEqualTo("failed");
        assertThat(operations.get(1).get("error").get("error_code").stringValue()).isEqualTo("one_voucher.transport_error");
        assertThat(operations.get(2).get("type").stringValue()).isEqualTo("reverse");
        assertThat(operations.get(2).get("status").stringValue()).isEqualTo("succeeded");
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/one_voucher/reverse"))
                .withRequestBody(matchingJsonPath("$.reversed_key", equalTo(id + ":confirm"))));
    }

    @Test
    void aServerErrorOnAReserveTheProviderActedOnIsResolvedByItsStatusAndTheRedemptionGoesOn() {
        PROVIDER.stubFor(post("/one_voucher/reserve").willReturn(failing(500)));
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(okJson(CONFIRMED)));
        // The reserve's status (stubbed in merchant()) says approved: the 500 came after the provider acted.

        JsonNode r = created("reserve-500-1");

        assertThat(r.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(r.get("version").intValue()).isEqualTo(3);
        assertThat(r.get("operations").get(0).get("status").stringValue()).isEqualTo("succeeded");
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/one_voucher/reserve")));
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/one_voucher/confirm")));
    }

    @Test
    void aResetReserveTheProviderNeverReceivedFailsTheReserveWithATransportErrorAndConfirmsNothing() {
        PROVIDER.stubFor(post("/one_voucher/reserve").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        PROVIDER.stubFor(get(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)reserve"))
                .atPriority(1).willReturn(notFound()));

        JsonNode r = created("reserve-reset-1");

        assertFailedAtReserve(r, "one_voucher.transport_error");
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/one_voucher/reserve")));
        PROVIDER.verify(0, postRequestedFor(urlEqualTo("/one_voucher/confirm")));
    }

    @Test
    void aReversalTheProviderNeverReceivedIsSentAgainUnderAFreshKeyBeforeTheRedemptionIsReportedFailed() {
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        statusOfConfirm(failing(503));
        // The first reversal is lost (500, and its status says never received); the one under a fresh key goes through.
        PROVIDER.stubFor(post("/one_voucher/reverse")
                .withRequestBody(matchingJsonPath("$.operation_key", matching("rdm_[a-f0-9]{24}:reverse")))
                .willReturn(failing(500)));
        PROVIDER.stubFor(post("/one_voucher/reverse")
                .withRequestBody(matchingJsonPath("$.operation_key", matching("rdm_[a-f0-9]{24}:reverse~2")))
                .willReturn(okJson(REVERSED)));
        PROVIDER.stubFor(get(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)reverse"))
                .willReturn(notFound()));

        JsonNode r = failedAfterGivingUp("lost-reversal-1");
        String id = r.get("id").stringValue();

        assertThat(r.get("reversed_amount").longValue()).as(r.toString()).isEqualTo(10000);
        JsonNode last = r.get("operations").get(r.get("operations").size() - 1);
        assertThat(last.get("type").stringValue()).isEqualTo("reverse");
        assertThat(last.get("status").stringValue()).isEqualTo("succeeded");
        PROVIDER.verify(2, postRequestedFor(urlEqualTo("/one_voucher/reverse"))
                .withRequestBody(matchingJsonPath("$.reversed_key", equalTo(id + ":confirm"))));
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/one_voucher/reverse"))
                .withRequestBody(matchingJsonPath("$.operation_key", equalTo(id + ":reverse"))));
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/one_voucher/reverse"))
                .withRequestBody(matchingJsonPath("$.operation_key", equalTo(id + ":reverse~2"))));
    }

    @Test
    void aProviderThatCannotBeReachedFailsTheRedemptionWithATransportErrorWithoutAskingAfterIt() {
        String token = secret("ABCD" + validPin().substring(8));
        var response = live.post("/collect/redemptions",
                "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\"" + token + "\"}}").send();

        assertThat(response.status()).isEqualTo(201);
        assertThat(response.json().get("status").stringValue()).isEqualTo("failed");
        assertThat(response.json().get("last_error").get("error_code").stringValue()).isEqualTo("provider_c.transport_error");
        assertThat(response.json().get("last_error").get("message").stringValue()).contains("nothing was sent");
    }

    @Test
    void aProviderDeclineIsRecordedAsItsOwnCode() {
        PROVIDER.stubFor(post("/one_voucher/reserve").willReturn(aResponse().withStatus(422)
                .withBody("{\"result\":\"declined\",\"error_code\":\"one_voucher.expired\",\"message\":\"Voucher " + pin + " has expired\"}")));

        JsonNode r = created("declined-1");

        assertThat(r.get("status").stringValue()).isEqualTo("failed");
        assertThat(r.get("last_error").get("error_code").stringValue()).isEqualTo("one_voucher.expired");
        PROVIDER.verify(0, getRequestedFor(urlPathMatching("/one_voucher/operations/.*")));
    }
}
