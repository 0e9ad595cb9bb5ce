package io.tender.simulator;

import io.tender.support.Api;
import io.tender.support.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged provider simulator's kept cards (docs/processor-protocol.md, decisions §8) over HTTP: an authorize with
 * {@code store_method: true} is approved with a {@code method_token}, and a later authorize with {@code card.token}
 * (no number) is answered as the first payment's number says: approved, 422 {@code card_declined}, 422
 * {@code insufficient_funds}, or for the 3-D Secure card, kept once the customer approves on the simulator's bank
 * page, 422 {@code authentication_required}, never 202. The token never shows on {@code /_ledger} nor in the log.
 */
class SimulatorKeptCardsIT {

    private static ServiceProcess simulator;
    private static Api processor;

    @BeforeAll
    static void start() throws Exception {
        int port = ServiceProcess.freePort();
        simulator = ServiceProcess.simulator("simulator-kept-cards", port, Map.of(
                "TENDER_DATA_DIR", Files.createTempDirectory("tender-simulator-kept-cards-").toString())).start();
        processor = new Api(simulator.baseUrl() + "/processor", null);
    }

    @AfterAll
    static void stop() {
        if (simulator != null) {
            simulator.close();
        }
    }

    @Test
    void keepsACardWhenAskedAndChargesItByItsTokenWithoutTheCustomer() {
        String first = key();
        var kept = authorize(first, card("4242424242424242"), true);
        assertThat(kept.status()).as(kept.text()).isEqualTo(200);
        String token = kept.json().get("method_token").stringValue();
        assertThat(token).startsWith("sbxtok_");
        // Tender finds the token by asking, when the first answer was lost.
        assertThat(status(first).get("method_token").stringValue()).isEqualTo(token);

        var charged = authorize(key(), kept(token), false);

        assertThat(charged.status()).as(charged.text()).isEqualTo(200);
        assertThat(charged.json().get("result").stringValue()).isEqualTo("approved");
        assertThat(charged.json().get("amount").longValue()).isEqualTo(9900);
        assertThat(charged.json().get("funding").stringValue()).isEqualTo("CREDIT");
        assertThat(charged.json().has("method_token")).isFalse();
    }

    @Test
    void anAuthorizeWithoutStoreMethodKeepsNothing() {
        var approved = authorize(key(), card("4242424242424242"), false);

        assertThat(approved.status()).as(approved.text()).isEqualTo(200);
        assertThat(approved.json().has("method_token")).isFalse();
    }

    @Test
    void chargesTheHardAndSoftDeclineCardsByTheirTokensWith422() {
        String hard = keep("4000000000000341");
        String soft = keep("4000000000004954");

        for (int charge = 0; charge < 2; charge++) {
            assertDeclined(authorize(key(), kept(hard), false), "card_declined", "generic_decline");
            assertDeclined(authorize(key(), kept(soft), false), "card_declined", "insufficient_funds");
        }
    }

    @Test
    void keepsTheThreeDSecureCardOnceTheCustomerApprovesOnTheBankPageAndDeclinesItsChargesAuthenticationRequired() {
        String first = key();
        var challenged = authorize(first, card("4000000000003220"), true);
        assertThat(challenged.status()).as(challenged.text()).isEqualTo(202);
        assertThat(challenged.json().get("result").stringValue()).isEqualTo("action_required");
        assertThat(challenged.json().has("method_token")).isFalse();
        assertThat(status(first).has("method_token")).isFalse();

        var answered = processor.post("/operations/" + first + "/challenge", "decision=approve")
                .contentType("application/x-www-form-urlencoded").send();
        assertThat(answered.status()).as(answered.text()).isEqualTo(200);

        JsonNode approved = status(first);
        assertThat(approved.get("result").stringValue()).isEqualTo("approved");
        String token = approved.get("method_token").stringValue();
        assertThat(token).startsWith("sbxtok_");
        assertDeclined(authorize(key(), kept(token), false), "authentication_required", "authentication_required");
    }

    @Test
    void aThreeDSecureChallengeTheCustomerDeclinesAnswersNoToken() {
        String first = key();
        assertThat(authorize(first, card("4000000000003220"), true).status()).isEqualTo(202);

        var declined = processor.post("/operations/" + first + "/decision", "{\"decision\":\"decline\"}").send();

        assertThat(declined.status()).as(declined.text()).isEqualTo(200);
        assertThat(declined.json().get("result").stringValue()).isEqualTo("declined");
        assertThat(status(first).get("result").stringValue()).isEqualTo("declined");
        assertThat(status(first).has("method_token")).isFalse();
    }

    @Test
    void aTokenItNeverIssuedIs422MethodNotFound() {
        assertDeclined(authorize(key(), kept("sbxtok_" + UUID.randomUUID().toString().replace("-", "")), false),
                "invalid_request", "method_not_found");
    }

    @Test
    void anAuthorizeWithAnEmptyTokenATokenBesideANumberOrAStoreMethodThatIsNotABooleanIs400() {
        String token = keep("4242424242424242");
        String both = "{\"token\":\"" + token
                + "\",\"number\":\"4242424242424242\",\"exp_month\":12,\"exp_year\":2040,\"security_code\":\"123\"}";

        assertThat(authorize(key(), both, false).status()).isEqualTo(400);
        assertThat(authorize(key(), kept(""), false).status()).isEqualTo(400);
        var notBoolean = processor.post("/authorize", """
                {"operation_key":"%s","amount":9900,"currency":"ZAR","capture":true,"store_method":"yes",
                 "method":{"type":"card","card":%s}}""".formatted(key(), card("4242424242424242"))).send();
        assertThat(notBoolean.status()).as(notBoolean.text()).isEqualTo(400);
        var noCapture = processor.post("/authorize", """
                {"operation_key":"%s","amount":9900,"currency":"ZAR","method":{"type":"card","card":%s}}"""
                .formatted(key(), card("4242424242424242"))).send();
        assertThat(noCapture.status()).as(noCapture.text()).isEqualTo(400);
    }

    @Test
    void aRepeatedKeyIsAnsweredWithTheFirstTokenAndNeitherTheLedgerNorTheLogEverShowsOne() {
        String first = key();
        var kept = authorize(first, card("4242424242424242"), true);
        String token = kept.json().get("method_token").stringValue();
        String charge = key();
        assertThat(authorize(charge, kept(token), false).status()).isEqualTo(200);

        var again = authorize(first, card("4242424242424242"), true);

        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("method_token").stringValue()).isEqualTo(token);
        assertThat(again.json().get("reference")).isEqualTo(kept.json().get("reference"));
        JsonNode ledger = new Api(simulator.baseUrl(), null).get("/_ledger").send().json();
        assertThat(ledger.get("processor_operations").valueStream()
                .filter(row -> row.get("operation_key").stringValue().equals(first)
                        || row.get("operation_key").stringValue().equals(charge))
                .map(row -> row.get("kind").stringValue() + " " + row.get("result").stringValue()))
                .containsExactly("sale approved", "sale approved");
        assertThat(ledger.toString()).doesNotContain("sbxtok_");
        assertThat(simulator.output()).doesNotContain("sbxtok_");
    }

    /** A first_in_series sale of this card that keeps it; returns the token. */
    private static String keep(String number) {
        var kept = authorize(key(), card(number), true);
        assertThat(kept.status()).as(kept.text()).isEqualTo(200);
        return kept.json().get("method_token").stringValue();
    }

    private static Api.Response authorize(String key, String card, boolean storeMethod) {
        return processor.post("/authorize", """
                {"operation_key":"%s","amount":9900,"currency":"ZAR","capture":true,%s
                 "method":{"type":"card","card":%s}}"""
                .formatted(key, storeMethod ? "\"store_method\":true," : "", card)).idempotencyKey(key).send();
    }

    private static String card(String number) {
        return "{\"number\":\"%s\",\"exp_month\":12,\"exp_year\":2040,\"security_code\":\"123\"}".formatted(number);
    }

    private static String kept(String token) {
        return "{\"token\":\"%s\"}".formatted(token);
    }

    private static JsonNode status(String key) {
        var answer = processor.get("/operations/" + key).send();
        assertThat(answer.status()).as(answer.text()).isEqualTo(200);
        return answer.json();
    }

    private static void assertDeclined(Api.Response answer, String errorCode, String declineCode) {
        assertThat(answer.status()).as(answer.text()).isEqualTo(422);
        assertThat(answer.json().get("result").stringValue()).isEqualTo("declined");
        assertThat(answer.json().get("error_code").stringValue()).isEqualTo(errorCode);
        assertThat(answer.json().get("decline_code").stringValue()).isEqualTo(declineCode);
    }

    private static String key() {
        return "pay_" + UUID.randomUUID() + ":authorize";
    }
}
