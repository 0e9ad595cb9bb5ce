package io.tender.apiversion;

import io.tender.checkout.Checkout;
import io.tender.processor.sandbox.SandboxProcessor;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants;
import io.tender.support.Vouchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.YearMonth;
import java.util.UUID;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dated API versions over HTTP (decisions §15): the same stored objects read in each version, a request in an older
 * version read up before validation, the merchant's pinned version without {@code Tender-Version}, another merchant
 * unaffected, the Idempotency-Key bound to the version, and a malformed or unknown version refused. Every answer says
 * the version it was rendered in. (Webhooks on two versions: {@code VersionedWebhooksIT}.)
 */
class ApiVersionsIT extends ApiIntegrationTest {

    static final String NEWEST = "2026-06-01";
    static final String OLDEST = "2026-03-13";
    private static final int EXP_YEAR = YearMonth.now().getYear() + 2;

    @Autowired
    private Checkout checkout;

    private Merchants.Merchant merchant;
    private Api api;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        api = merchant.test();
    }

    /** A GET in {@code version} (null: without the header), checked to answer 200 in it. */
    private JsonNode read(String path, String version) {
        Api.Response response = get(path, version).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.header("Tender-Version")).isEqualTo(version == null ? NEWEST : version);
        return response.json();
    }

    private Api.Request get(String path, String version) {
        Api.Request request = api.get(path);
        return version == null ? request : request.header("Tender-Version", version);
    }

    private JsonNode session() {
        Api.Response created = api.post("/collect/payment_sessions", "{\"amount\":15000,\"currency\":\"ZAR\"}").send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json();
    }

    /** A payment by bank, approved at the sandbox bank's page. */
    private String payByBank() {
        String ckt = session().get("checkout_session_id").stringValue();
        Checkout.Attempt waiting = checkout.payByBank(ckt, "Nedbank");
        assertThat(waiting.action()).isEqualTo("bank_login");
        assertThat(checkout.decideSandbox(ckt, SandboxProcessor.Decision.APPROVE).orElseThrow().status())
                .isEqualTo("succeeded");
        return waiting.paymentId();
    }

    @ParameterizedTest(name = "in {0}: {1}")
    @CsvSource({"2026-03-13, instant_eft", "2026-03-15, instant_eft", "2026-03-16, instant_eft",
            "2026-06-01, pay_by_bank"})
    void aPayByBankPaymentReadsAsInstantEftBeforeJuneAndAsPayByBankSince(String version, String type) {
        String id = payByBank();
        JsonNode payment = read("/collect/payments/" + id, version);
        assertThat(payment.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(payment.get("payment_method_details").propertyNames()).containsExactly("type", type);
        assertThat(payment.at("/payment_method_details/type").stringValue()).isEqualTo(type);
        assertThat(payment.at("/payment_method_details/" + type + "/bank").stringValue()).isEqualTo("Nedbank");
        JsonNode listed = read("/collect/payments?payment_session=" + payment.get("payment_session_id").stringValue(),
                version);
        assertThat(listed.at("/data/0/payment_method_details/type").stringValue()).isEqualTo(type);
        // Stored in the newest shape whatever was read.
        assertThat(jdbc.sql("select payment_method_details->>'type' from payments where id = ?").param(id)
                .query(String.class).single()).isEqualTo("pay_by_bank");
    }

    @ParameterizedTest(name = "in {0}: {1}")
    @CsvSource({"2026-03-13, pending_action", "2026-03-16, pending_action", "2026-06-01, pending"})
    void anInFlight3DSecurePaymentIsPendingActionBeforeJuneAndPendingSince(String version, String status) {
        JsonNode session = session();
        Checkout.Attempt waiting = checkout.payByCard(session.get("checkout_session_id").stringValue(),
                "4000000000003220", 12, EXP_YEAR, "123");
        assertThat(waiting.action()).isEqualTo("three_d_secure");

        assertThat(read("/collect/payments/" + waiting.paymentId(), version).get("status").stringValue())
                .isEqualTo(status);
        assertThat(read("/collect/payments?payment_session=" + session.get("id").stringValue(), version)
                .at("/data/0/status").stringValue()).isEqualTo(status);
        // Its session is the same in every version: its outcome is not a payment's status.
        assertThat(read("/collect/payment_sessions/" + session.get("id").stringValue(), version)
                .get("payment_outcome").stringValue()).isEqualTo("pending");
    }

    @Test
    void aSessionWithDisplayPayButtonIsReadUpAndRenderedDownInTheVersionsBeforeMarch15() {
        String body = """
                {"amount": 5000, "currency": "ZAR", "options": {"checkout_options":
                  {"presentation_mode": "embedded_modal", "displayPayButton": false}}}""";
        Api.Response created = api.post("/collect/payment_sessions", body).header("Tender-Version", OLDEST).send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.header("Tender-Version")).isEqualTo(OLDEST);
        JsonNode options = created.json().at("/options/checkout_options");
        assertThat(options.get("displayPayButton").booleanValue()).isFalse();
        assertThat(options.has("display_pay_button")).isFalse();
        String id = created.json().get("id").stringValue();

        JsonNode before = read("/collect/payment_sessions/" + id, OLDEST).at("/options/checkout_options");
        assertThat(before.get("displayPayButton").booleanValue()).isFalse();
        assertThat(before.has("display_pay_button")).isFalse();
        for (String version : new String[]{"2026-03-15", "2026-03-16", NEWEST}) {
            JsonNode read = read("/collect/payment_sessions/" + id, version).at("/options/checkout_options");
            assertThat(read.get("display_pay_button").booleanValue()).isFalse();
            assertThat(read.has("displayPayButton")).isFalse();
        }
        // The newest version does not know the old name; a refusal in the old version names the field as sent.
        assertBadRequest(api.post("/collect/payment_sessions", body).send(),
                "options.checkout_options.displayPayButton");
        assertBadRequest(api.post("/collect/payment_sessions", body.replace("embedded_modal", "redirect"))
                .header("Tender-Version", OLDEST).send(), "options.checkout_options.displayPayButton");
        // An old client's method list reads up too: instant_eft is stored as pay_by_bank.
        Api.Response methods = api.post("/collect/payment_sessions", """
                {"amount": 5000, "currency": "ZAR", "options": {"checkout_options":
                  {"visible_payment_methods": ["instant_eft", "card"]}}}""").header("Tender-Version", OLDEST).send();
        assertThat(methods.json().at("/options/checkout_options/visible_payment_methods").toString())
                .isEqualTo("[\"instant_eft\",\"card\"]");
        assertThat(read("/collect/payment_sessions/" + methods.json().get("id").stringValue(), null)
                .at("/options/checkout_options/visible_payment_methods").toString())
                .isEqualTo("[\"pay_by_bank\",\"card\"]");
    }

    @ParameterizedTest(name = "in {0}: {1}")
    @CsvSource({"2026-03-13, resource_not_found, Resource not found", "2026-03-15, resource_not_found, Resource not found",
            "2026-03-16, payment_not_found, Payment not found", "2026-06-01, payment_not_found, Payment not found"})
    void aMissingPaymentIsResourceNotFoundBeforeMarch16AndPaymentNotFoundSince(String version, String code,
                                                                              String title) {
        for (String path : new String[]{"/collect/payments/pay_0000000000000000000000a1",
                "/collect/payment_sessions/ps_0000000000000000000000a1"}) {
            Api.Response missing = get(path, version).send();
            JsonNode problem = assertProblem(missing, 404, code);
            assertThat(problem.get("title").stringValue()).isEqualTo(title);
            assertThat(missing.header("Tender-Version")).isEqualTo(version);
        }
        // Other 404s never said payment_not_found.
        assertProblem(get("/collect/redemptions/rdm_0000000000000000000000a1", version).send(), 404,
                "resource_not_found");
    }

    @Test
    void aPinnedMerchantIsAnsweredInItsVersionWithoutTheHeaderAndInTheHeadersWithIt() {
        String id = payByBank();
        Api.Response pinned = merchants.admin().patch("/admin/merchants/" + merchant.name(),
                "{\"api_version\":\"" + OLDEST + "\"}").send();
        assertThat(pinned.status()).as(pinned.toString()).isEqualTo(200);
        assertThat(pinned.json().get("api_version").stringValue()).isEqualTo(OLDEST);

        Api.Response withoutHeader = api.get("/collect/payments/" + id).send();
        assertThat(withoutHeader.header("Tender-Version")).isEqualTo(OLDEST);
        assertThat(withoutHeader.json().at("/payment_method_details/type").stringValue()).isEqualTo("instant_eft");
        assertThat(read("/collect/payments/" + id, NEWEST).at("/payment_method_details/type").stringValue())
                .isEqualTo("pay_by_bank");
        // A webhook endpoint it makes without the header takes its pinned version.
        Api.Response endpoint = api.post("/webhook_endpoints",
                "{\"url\":\"http://127.0.0.1:9/hook\",\"enabled_events\":[\"*\"]}").send();
        assertThat(endpoint.json().get("api_version").stringValue()).isEqualTo(OLDEST);

        // Another merchant is not affected by this one's pin.
        Merchants.Merchant other = merchants.create();
        Api.Response theirs = other.test().get("/collect/payments?limit=1").send();
        assertThat(theirs.header("Tender-Version")).isEqualTo(NEWEST);
        Api.Response otherPin = merchants.admin().get("/admin/merchants").send();
        assertThat(otherPin.json().get("data").valueStream()
                .filter(m -> m.get("name").stringValue().equals(other.name())).findFirst().orElseThrow()
                .get("api_version").stringValue()).isEqualTo(NEWEST);
    }

    @Test
    void aNewMerchantIsPinnedToTheNewestVersion() {
        JsonNode listed = merchants.admin().get("/admin/merchants").send().json().get("data").valueStream()
                .filter(m -> m.get("name").stringValue().equals(merchant.name())).findFirst().orElseThrow();
        assertThat(listed.get("api_version").stringValue()).isEqualTo(ApiVersions.NEWEST.wire());
        assertThat(api.get("/collect/payments?limit=1").send().header("Tender-Version"))
                .isEqualTo(ApiVersions.NEWEST.wire());
    }

    @Test
    void theAdminApiRefusesAVersionTenderDoesNotServe() {
        assertBadRequest(merchants.admin().patch("/admin/merchants/" + merchant.name(),
                "{\"api_version\":\"2026-03-14\"}").send(), "api_version");
        assertBadRequest(merchants.admin().patch("/admin/merchants/" + merchant.name(), "{}").send(), "api_version");
        assertProblem(api.patch("/admin/merchants/" + merchant.name(), "{\"api_version\":\"2026-03-13\"}").send(),
                401, "unauthorized");
        // Nothing moved.
        assertThat(api.get("/collect/payments?limit=1").send().header("Tender-Version")).isEqualTo(NEWEST);
    }

    @Test
    void anIdempotencyKeyIsBoundToTheVersionOfItsRequest() {
        String key = "versions-" + UUID.randomUUID();
        String body = "{\"amount\":2500,\"currency\":\"ZAR\"}";
        Api.Response first = api.post("/collect/payment_sessions", body).idempotencyKey(key)
                .header("Tender-Version", OLDEST).send();
        assertThat(first.status()).as(first.toString()).isEqualTo(201);

        Api.Response replay = api.post("/collect/payment_sessions", body).idempotencyKey(key)
                .header("Tender-Version", OLDEST).send();
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.bytes()).isEqualTo(first.bytes());

        Api.Response other = api.post("/collect/payment_sessions", body).idempotencyKey(key).send();
        assertProblem(other, 409, "idempotency_conflict");
        assertThat(other.header("Tender-Version")).isEqualTo(NEWEST);
        assertThat(jdbc.sql("select count(*) from payment_sessions where merchant_id = ?").param(merchant.id())
                .query(Long.class).single()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-03-14", "2026-6-1", "yesterday", "2026-06-01T00:00:00Z", "2099-01-01"})
    void aMalformedOrUnknownVersionIs400NamingTheVersionsAndChangesNothing(String version) {
        String key = "bad-version-" + UUID.randomUUID();
        Api.Response refused = api.post("/collect/payment_sessions", "{\"amount\":2500,\"currency\":\"ZAR\"}")
                .idempotencyKey(key).header("Tender-Version", version).send();
        JsonNode problem = assertBadRequest(refused, "Tender-Version");
        assertThat(problem.at("/errors/0/message").stringValue())
                .contains("2026-03-13, 2026-03-15, 2026-03-16, 2026-06-01").doesNotContain(version);
        assertThat(refused.header("Tender-Version")).isEqualTo(NEWEST);
        assertThat(jdbc.sql("select count(*) from payment_sessions where merchant_id = ?").param(merchant.id())
                .query(Long.class).single()).isZero();
        // The key stayed free.
        assertThat(api.post("/collect/payment_sessions", "{\"amount\":2500,\"currency\":\"ZAR\"}")
                .idempotencyKey(key).send().status()).isEqualTo(201);
        // A GET is refused the same way; without a valid key, authentication answers first.
        assertBadRequest(get("/collect/payments?limit=1", version).send(), "Tender-Version");
        assertProblem(get("/collect/payments?limit=1", version).withoutKey().send(), 401, "unauthorized");
    }

    @Test
    void theHeaderTwiceIsRefused() {
        Api.Response twice = api.get("/collect/payments?limit=1").header("Tender-Version", OLDEST)
                .header("Tender-Version", NEWEST).send();
        assertBadRequest(twice, "Tender-Version");
    }

    @Test
    void everyAnswerSaysTheVersionItWasRenderedIn() {
        assertThat(api.get("/collect/payments?limit=1").withoutKey().send().header("Tender-Version")).isEqualTo(NEWEST);
        assertThat(get("/collect/payments?limit=1", "2026-03-15").withoutKey().send().header("Tender-Version"))
                .isEqualTo("2026-03-15");
        Api.Response unknownPath = get("/collect/nothing-here", OLDEST).send();
        assertProblem(unknownPath, 404, "resource_not_found");
        assertThat(unknownPath.header("Tender-Version")).isEqualTo(OLDEST);
        Api.Response tooLarge = api.post("/collect/payment_sessions", "{\"a\":\"" + "x".repeat(70_000) + "\"}")
                .header("Tender-Version", OLDEST).send();
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.header("Tender-Version")).isEqualTo(OLDEST);
        // Not the API: the documents and the dashboard carry none.
        assertThat(anonymous().get("/openapi.json").send().header("Tender-Version")).isNull();
    }

    @Test
    void theOpenApiDocumentDescribesTheNewestVersionAndListsTheVersionsAndTheHeader() {
        JsonNode document = anonymous().get("/openapi.json").send().json();
        String description = document.at("/info/description").stringValue();
        assertThat(description).contains("This document describes the newest version, 2026-06-01");
        ApiVersions.ALL.forEach(version -> assertThat(description).contains("`" + version.wire() + "`"));
        ApiVersions.changes().forEach(change -> assertThat(description).contains(change.title()));
        assertThat(document.at("/components/parameters/Tender-Version/in").stringValue()).isEqualTo("header");
        // One named enum of the versions, which the header and a webhook endpoint's api_version refer to.
        assertThat(document.at("/components/schemas/ApiVersion/enum").toString())
                .isEqualTo("[\"2026-03-13\",\"2026-03-15\",\"2026-03-16\",\"2026-06-01\"]");
        assertThat(document.at("/components/parameters/Tender-Version/schema/$ref").stringValue())
                .isEqualTo("#/components/schemas/ApiVersion");
        assertThat(document.at("/components/headers/Tender-Version/schema/$ref").stringValue())
                .isEqualTo("#/components/schemas/ApiVersion");
        assertThat(document.at("/components/schemas/UpdateWebhookEndpointRequest/properties/api_version/$ref")
                .stringValue()).isEqualTo("#/components/schemas/ApiVersion");
        // The newest shapes: pay_by_bank, and no legacy status among a payment's.
        assertThat(document.at("/components/schemas/Payment/properties/status/enum").toString())
                .doesNotContain("processing", "pending_action", "initiating");
        document.get("paths").properties().forEach(path -> path.getValue().properties().forEach(operation ->
                operation.getValue().get("responses").properties().forEach(response ->
                        assertThat(response.getValue().at("/headers/Tender-Version/$ref").stringValue())
                                .as(operation.getKey() + " " + path.getKey() + " " + response.getKey())
                                .isEqualTo("#/components/headers/Tender-Version"))));
    }

    @Test
    void everyOperationDocumentedToAnswerPaymentNotFoundIsOnAPathItsChangeRenders() {
        JsonNode document = anonymous().get("/openapi.json").send().json();
        VersionChange change = ApiVersions.changesIn(ApiVersion.of("2026-03-16")).getFirst();
        java.util.List<String> answering = new java.util.ArrayList<>();
        document.get("paths").properties().forEach(path -> path.getValue().properties().forEach(operation -> {
            if (operation.getValue().at("/responses/404/description").stringValue("").contains("payment_not_found")) {
                answering.add(path.getKey());
            }
        }));
        assertThat(answering).isNotEmpty().allSatisfy(path ->
                assertThat(ApiVersions.touchesPath(change, path.replace("{id}", "x"))).as(path).isTrue());
    }

    @Test
    void aRedemptionReadsTheSameInEveryVersion() {
        Api.Response created = api.post("/collect/redemptions", Vouchers.oneVoucher(Vouchers.validPin()))
                .idempotencyKey(UUID.randomUUID().toString()).header("Tender-Version", OLDEST).send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.header("Tender-Version")).isEqualTo(OLDEST);
        String path = "/collect/redemptions/" + created.json().get("id").stringValue();
        byte[] newest = get(path, NEWEST).send().bytes();
        for (String version : new String[]{OLDEST, "2026-03-15", "2026-03-16"}) {
            assertThat(get(path, version).send().bytes()).isEqualTo(newest);
        }
    }
}
