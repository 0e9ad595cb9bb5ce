package io.tender.auth;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import io.tender.support.RawHttp;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import static io.tender.support.ProblemAssertions.assertProblem;
import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/** Spec "Authentication" and decisions §1: who may call the redemption endpoints, and what a refusal looks like. */
class AuthenticationIT extends ApiIntegrationTest {

    private Merchant merchant;
    private String redemptionId;

    @BeforeEach
    void merchantWithARedemption() {
        merchant = merchants.create();
        var created = merchant.test().post("/collect/redemptions", oneVoucher(validPin())).send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        redemptionId = created.json().get("id").stringValue();
    }

    private long stored(String table) {
        return jdbc.sql("select count(*) from " + table + " where merchant_id = ?").param(merchant.id())
                .query(Long.class).single();
    }

    private void assertNothingMoreStored() {
        assertThat(stored("redemptions")).as("redemptions").isEqualTo(1);
        assertThat(stored("outbox")).as("events").isEqualTo(3);
        assertThat(stored("idempotency_keys")).as("idempotency keys").isZero();
    }

    private Api.Request create(Api api) {
        return api.post("/collect/redemptions", oneVoucher(validPin())).idempotencyKey(UUID.randomUUID().toString());
    }

    @Test
    void noAuthorizationHeaderIs401UnauthorizedWithABearerChallenge() {
        for (var request : new Api.Request[]{create(anonymous()), anonymous().get("/collect/redemptions"),
                anonymous().get("/collect/redemptions/" + redemptionId)}) {
            var response = request.send();
            assertProblem(response, 401, "unauthorized");
            assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
        }
        assertNothingMoreStored();
    }

    @Test
    void authenticationComesBeforeValidationSoAnAnonymousClientLearnsNothingAboutTheBody() {
        var response = anonymous().post("/collect/redemptions", "{\"amount\":0}").send();
        assertProblem(response, 401, "unauthorized");
        assertThat(response.json().has("errors")).isFalse();
    }

    @ParameterizedTest(name = "Authorization: \"{0}\"")
    @ValueSource(strings = {"Basic x", "Basic dXNlcjpwYXNz", "Bearer ", "Bearer", "Token sk_test_0123456789abcdef",
            "sk_test_0123456789abcdef0123456789abcdef01234567"})
    void aHeaderWithoutABearerTokenIs401MissingAuthorization(String header) {
        var response = create(anonymous()).header("Authorization", header).send();
        assertProblem(response, 401, "missing_authorization");
        assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
        assertNothingMoreStored();
    }

    @ParameterizedTest(name = "Bearer {0}")
    @ValueSource(strings = {"sk_test_0123456789abcdef0123456789abcdef01234567", "sk_live_0123456789abcdef0123456789abcdef",
            "pk_test_0123456789abcdef0123456789abcdef01234567", "garbage", "rk_test_0123456789abcdef",
            "sk_test_", "sk_test_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"})
    void anUnknownOrGarbageKeyIs401Unauthorized(String key) {
        var response = create(anonymous().as(key)).send();
        assertProblem(response, 401, "unauthorized");
        assertThat(response.text()).as("a refusal does not repeat the key").doesNotContain(key);
        assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
        assertProblem(anonymous().as(key).get("/collect/redemptions/" + redemptionId).send(), 401, "unauthorized");
        assertNothingMoreStored();
    }

    /** A raw request's problem body, checked for the members every problem carries; the JDK client may merge headers. */
    private static JsonNode rawProblem(RawHttp.Response response, int status, String code) {
        assertThat(response.status()).as(response.text()).isEqualTo(status);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        JsonNode problem = Api.JSON.readTree(response.body());
        assertThat(problem.get("code").stringValue()).isEqualTo(code);
        assertThat(problem.get("request_id").stringValue()).isEqualTo(response.header("Request-Id"));
        return problem;
    }

    @Test
    void twoAuthorizationHeadersAre400AndChangeNothing() {
        Merchant other = merchants.create();
        String mine = "Authorization: Bearer " + merchant.test().key();
        String theirs = "Authorization: Bearer " + other.test().key();
        // Two keys of two merchants, and the same key twice: whichever a proxy reads, we read neither.
        for (String[] headers : new String[][]{{mine, theirs}, {theirs, mine}, {mine, mine}}) {
            var create = RawHttp.post(port, "/collect/redemptions", oneVoucher(validPin()),
                    headers[0], headers[1], "Idempotency-Key: two-headers");
            JsonNode problem = rawProblem(create, 400, "bad_request");
            assertThat(problem.get("detail").stringValue()).contains("more than one Authorization header");
            rawProblem(RawHttp.get(port, "/collect/redemptions/" + redemptionId, null, headers[0], headers[1]),
                    400, "bad_request");
        }
        var admin = RawHttp.post(port, "/admin/merchants", "{\"name\":\"two-headers\"}",
                "Authorization: Bearer " + ADMIN_TOKEN, "Authorization: Bearer " + ADMIN_TOKEN);
        assertThat(rawProblem(admin, 400, "bad_request").get("detail").stringValue())
                .contains("more than one Authorization header");

        assertNothingMoreStored();
        assertThat(jdbc.sql("select count(*) from redemptions where merchant_id = ?").param(other.id())
                .query(Long.class).single()).isZero();
        assertThat(jdbc.sql("select count(*) from merchants where name = 'two-headers'").query(Long.class).single())
                .isZero();
        // The Idempotency-Key was not used: the same request with one header runs.
        var single = RawHttp.post(port, "/collect/redemptions", oneVoucher(validPin()), mine,
                "Idempotency-Key: two-headers");
        assertThat(single.status()).as(single.text()).isEqualTo(201);
    }

    @Test
    void theSchemeNameIsCaseInsensitive() {
        var response = anonymous().get("/collect/redemptions/" + redemptionId)
                .header("Authorization", "bearer " + merchant.test().key()).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
    }

    @Test
    void aRevokedKeyIs401UnauthorizedAtOnce() {
        Api key = merchant.test();
        assertThat(key.get("/collect/redemptions/" + redemptionId).send().status()).isEqualTo(200);

        var revoked = merchants.admin().post("/admin/keys/" + merchant.testKeyId() + "/revoke", "").send();
        assertThat(revoked.status()).as(revoked.toString()).isEqualTo(200);
        assertThat(revoked.json().get("revoked_at").stringValue()).isNotBlank();

        // Straight after the revocation, although the key was used (and cached) a moment ago.
        assertProblem(key.get("/collect/redemptions/" + redemptionId).send(), 401, "unauthorized");
        assertProblem(key.get("/collect/redemptions").send(), 401, "unauthorized");
        assertProblem(create(key).send(), 401, "unauthorized");
        assertNothingMoreStored();
    }

    @Test
    void publicKeysMayNotCreateRetrieveOrListRedemptions() {
        for (Api publicKey : new Api[]{merchant.publicTest(), merchant.publicLive()}) {
            assertProblem(create(publicKey).send(), 403, "operation_not_allowed");
            assertProblem(publicKey.get("/collect/redemptions/" + redemptionId).send(), 403, "operation_not_allowed");
            assertProblem(publicKey.get("/collect/redemptions").send(), 403, "operation_not_allowed");
        }
        assertNothingMoreStored();
    }

    @Test
    void aLiveRedemptionWithoutAConfiguredProviderIs503AndStoresNothing() {
        var response = create(merchant.live()).send();
        assertProblem(response, 503, "service_unavailable");
        assertThat(response.json().get("detail").stringValue()).contains("vouchers.one_voucher");
        assertNothingMoreStored();

        // The same key can then be used again: the refusal was not stored under it.
        var again = merchant.live().post("/collect/redemptions", oneVoucher(validPin())).idempotencyKey("live-1").send();
        assertProblem(again, 503, "service_unavailable");
        assertThat(jdbc.sql("select count(*) from idempotency_keys where merchant_id = ? and mode = 'live'")
                .param(merchant.id()).query(Long.class).single()).isZero();
    }

    @Test
    void aLiveSecretKeyReadsOnlyLiveRedemptions() {
        var list = merchant.live().get("/collect/redemptions").send();
        assertThat(list.status()).as(list.toString()).isEqualTo(200);
        assertThat(list.json().get("data")).isEmpty();
        assertProblem(merchant.live().get("/collect/redemptions/" + redemptionId).send(), 404, "resource_not_found");
    }

    /** A customer, an account and a bill of this merchant, created with its secret key. */
    private record Billing(JsonNode customer, JsonNode account, JsonNode bill) {
    }

    private Billing billing() {
        Api key = merchant.test();
        var customer = key.post("/billing/customers", "{\"external_reference\":\"auth-cust\",\"name\":\"Ada\","
                + "\"email\":\"ada@example.com\",\"currency\":\"ZAR\",\"balance\":1000}").send();
        assertThat(customer.status()).as(customer.toString()).isEqualTo(201);
        var account = key.post("/billing/accounts", "{\"customer\":\"auth-cust\",\"external_reference\":\"auth-acc\","
                + "\"name\":\"Main\"}").send();
        assertThat(account.status()).as(account.toString()).isEqualTo(201);
        var bill = key.post("/billing/bills", "{\"account\":\"auth-acc\",\"external_reference\":\"AUTH-INV-1\","
                + "\"currency\":\"ZAR\",\"amount_due\":15000,\"due_date\":\"2030-01-31\"}").send();
        assertThat(bill.status()).as(bill.toString()).isEqualTo(201);
        return new Billing(customer.json(), account.json(), bill.json());
    }

    /**
     * A call of every Billing endpoint, each one that a secret key may make (the test shows it at the end), with a
     * fresh Idempotency-Key on every POST and PATCH. The payment comes before the void: a voided bill takes none.
     */
    private static List<Function<Api, Api.Request>> billingCalls(Billing billing) {
        String customer = "/billing/customers/" + billing.customer().get("id").stringValue();
        String account = "/billing/accounts/" + billing.account().get("id").stringValue();
        String bill = "/billing/bills/" + billing.bill().get("id").stringValue();
        return List.of(
                api -> api.get("/billing/customers"),
                api -> api.get(customer),
                api -> api.post("/billing/customers", "{\"external_reference\":\"auth-cust-2\",\"name\":\"Bob\","
                        + "\"email\":\"bob@example.com\"}").idempotencyKey(UUID.randomUUID().toString()),
                api -> api.patch(customer, "{\"balance\":1}").idempotencyKey(UUID.randomUUID().toString()),
                api -> api.get("/billing/accounts"),
                api -> api.get(account),
                api -> api.post("/billing/accounts", "{\"customer\":\"auth-cust\",\"external_reference\":\"auth-acc-2\","
                        + "\"name\":\"Second\"}").idempotencyKey(UUID.randomUUID().toString()),
                api -> api.patch(account, "{\"name\":\"Renamed\"}").idempotencyKey(UUID.randomUUID().toString()),
                api -> api.get("/billing/bills"),
                api -> api.get(bill),
                api -> api.post("/billing/bills", "{\"account\":\"auth-acc\",\"external_reference\":\"AUTH-INV-2\","
                        + "\"currency\":\"ZAR\",\"amount_due\":100,\"due_date\":\"2030-01-31\"}")
                        .idempotencyKey(UUID.randomUUID().toString()),
                api -> api.patch(bill, "{\"amount_paid\":100}").idempotencyKey(UUID.randomUUID().toString()),
                api -> api.post("/billing/test_helpers/payments", "{\"bill\":\"AUTH-INV-1\",\"amount\":500,"
                        + "\"currency\":\"ZAR\"}").idempotencyKey(UUID.randomUUID().toString()),
                api -> api.post(bill + "/void", null).idempotencyKey(UUID.randomUUID().toString()));
    }

    private Map<String, Long> billingRows() {
        return Map.of("customers", stored("billing_customers"), "accounts", stored("billing_accounts"),
                "bills", stored("billing_bills"), "payments", stored("payments"),
                "applications", stored("billing_payment_applications"), "events", stored("outbox"),
                "idempotency keys", stored("idempotency_keys"));
    }

    /** Everything refused, so the customer, account and bill read exactly as they did, and nothing was added. */
    private void assertBillingUntouched(Billing billing, Map<String, Long> rowsBefore) {
        assertThat(billingRows()).isEqualTo(rowsBefore);
        assertThat(stored("billing_customers")).isEqualTo(1);
        assertThat(stored("payments")).isZero();
        Api key = merchant.test();
        assertThat(key.get("/billing/customers/" + billing.customer().get("id").stringValue()).send().json())
                .isEqualTo(billing.customer());
        assertThat(key.get("/billing/accounts/" + billing.account().get("id").stringValue()).send().json())
                .isEqualTo(billing.account());
        assertThat(key.get("/billing/bills/" + billing.bill().get("id").stringValue()).send().json())
                .isEqualTo(billing.bill());
    }

    /** The calls were sound all along: with the secret key each one succeeds. */
    private void assertEachSucceedsWithTheSecretKey(List<Function<Api, Api.Request>> calls) {
        for (var call : calls) {
            var response = call.apply(merchant.test()).send();
            assertThat(response.status()).as(response.toString()).isBetween(200, 201);
        }
        assertThat(stored("billing_customers")).isEqualTo(2);
        assertThat(stored("payments")).isEqualTo(1);
    }

    @Test
    void everyBillingEndpointWithoutAnAuthorizationHeaderIs401UnauthorizedAndChangesNothing() {
        Billing billing = billing();
        var calls = billingCalls(billing);
        var rowsBefore = billingRows();

        for (var call : calls) {
            var response = call.apply(anonymous()).send();
            assertProblem(response, 401, "unauthorized");
            assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
        }
        assertBillingUntouched(billing, rowsBefore);
        assertEachSucceedsWithTheSecretKey(calls);
    }

    @Test
    void publicKeysMayNotCallAnyBillingEndpointAndChangeNothing() {
        Billing billing = billing();
        var calls = billingCalls(billing);
        var rowsBefore = billingRows();

        for (Api publicKey : new Api[]{merchant.publicTest(), merchant.publicLive()}) {
            for (var call : calls) {
                assertProblem(call.apply(publicKey).send(), 403, "operation_not_allowed");
            }
        }
        assertBillingUntouched(billing, rowsBefore);
        assertEachSucceedsWithTheSecretKey(calls);
    }
}
