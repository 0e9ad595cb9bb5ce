package io.tender.api;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Decisions §9 / docs/DECISIONS.md "Text the service accepts": a NUL character or an unpaired UTF-16 surrogate in any
 * JSON string (value or property name, at any depth, free-form objects included) or query parameter, and bytes that
 * are not UTF-8, are a 400 {@code bad_request} naming the field, for every family of endpoints; nothing is stored
 * and the Idempotency-Key stays free. Valid non-ASCII text (accents, CJK, emoji) still round-trips exactly.
 */
class TextInputIT extends ApiIntegrationTest {

    /** What a client writes inside a JSON string: JSON escapes, so the service sees exactly these UTF-16 units. */
    private static final List<String> BAD_TEXTS = List.of(
            "\\u0000",          // NUL
            "\\ud800",          // a high surrogate alone
            "\\udfff",          // a low surrogate alone
            "\\udc00\\ud800");  // a pair the wrong way round
    private static final List<String> TABLES = List.of("redemptions", "outbox", "idempotency_keys",
            "billing_customers", "billing_accounts", "billing_bills", "billing_payment_applications", "payments",
            "webhook_endpoints");

    private Merchant merchant;
    private Api api;
    private final Map<String, String> ids = new LinkedHashMap<>();

    @BeforeEach
    void merchantWithOneOfEverything() {
        merchant = merchants.create();
        api = merchant.test();
        ids.put("{customer}", created(api.post("/billing/customers",
                "{\"external_reference\":\"cus-1\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}")));
        ids.put("{account}", created(api.post("/billing/accounts",
                "{\"customer\":\"cus-1\",\"external_reference\":\"acc-1\",\"name\":\"Main\"}")));
        ids.put("{bill}", created(api.post("/billing/bills", "{\"customer\":\"cus-1\",\"external_reference\":\"bill-1\","
                + "\"currency\":\"ZAR\",\"amount_due\":1000,\"due_date\":\"2030-01-31\"}")));
        ids.put("{endpoint}", created(api.post("/webhook_endpoints",
                // An event no test here causes: no delivery runs in the background while states are compared.
                "{\"url\":\"http://127.0.0.1:9/hook\",\"enabled_events\":[\"redemption.reversed\"],\"description\":\"first\"}")));
        ids.put("{redemption}", created(api.post("/collect/redemptions",
                "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + validPin() + "\"}}")));
    }

    private static String created(Api.Request request) {
        var response = request.send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json().get("id").stringValue();
    }

    private String withIds(String text) {
        for (var id : ids.entrySet()) {
            text = text.replace(id.getKey(), id.getValue());
        }
        return text;
    }

    /** Row counts of the merchant's tables, and every object as a GET shows it: what must not change. */
    private Map<String, String> state() {
        Map<String, String> state = new LinkedHashMap<>();
        for (String table : TABLES) {
            state.put(table, jdbc.sql("select count(*) from " + table + " where merchant_id = ?")
                    .param(merchant.id()).query(Long.class).single().toString());
        }
        for (String path : List.of("/billing/customers/{customer}", "/billing/accounts/{account}",
                "/billing/bills/{bill}", "/webhook_endpoints/{endpoint}", "/collect/redemptions/{redemption}")) {
            state.put(path, api.get(withIds(path)).send().text());
        }
        return state;
    }

    static Stream<Arguments> bodies() {
        String voucher = "\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"4000123412347777\"}";
        String bill = "\"currency\":\"ZAR\",\"amount_due\":100,\"due_date\":\"2030-01-31\"";
        return Stream.of(
                // redemptions: every kind of place a string can be
                arguments("POST", "/collect/redemptions", "{" + voucher + ",\"external_reference\":\"sale-%s\"}", "external_reference"),
                arguments("POST", "/collect/redemptions", "{" + voucher + ",\"metadata\":{\"note\":\"a%sb\"}}", "metadata.note"),
                arguments("POST", "/collect/redemptions", "{" + voucher + ",\"metadata\":{\"no%ste\":\"x\"}}", "metadata"),
                arguments("POST", "/collect/redemptions", "{" + voucher + ",\"related_ids\":[\"a\",\"b\",\"c%s\"]}", "related_ids[2]"),
                arguments("POST", "/collect/redemptions", "{" + voucher
                        + ",\"redemption_options\":{\"till\":{\"labels\":[\"ok\",\"%s\"]}}}", "redemption_options.till.labels[1]"),
                arguments("POST", "/collect/redemptions", "{" + voucher + ",\"redemption_options\":{\"till\":{\"%s\":1}}}", "redemption_options.till"),
                arguments("POST", "/collect/redemptions", "{\"type\":\"vouchers.ott\",\"source\":{\"pin\":\"AB%sCD\","
                        + "\"phone_number\":\"+27821234567\"}}", "source.pin"),
                arguments("POST", "/collect/redemptions", "{" + voucher + ",\"ex%s\":\"x\"}", "body"),
                arguments("POST", "/collect/redemptions/{redemption}/confirm", "{\"amount\":1,\"note\":\"%s\"}", "note"),
                // stored value
                arguments("POST", "/stored_value/lookup", "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\"T1234%s\"}}", "source.token"),
                arguments("POST", "/stored_value/lookup", "{\"type\":\"vouchers.provider_c%s\",\"source\":{\"token\":\"T1234\"}}", "type"),
                // billing customers, accounts, bills: create and PATCH
                arguments("POST", "/billing/customers", "{\"external_reference\":\"c-%s\",\"name\":\"N\",\"email\":\"n@example.com\"}", "external_reference"),
                arguments("POST", "/billing/customers", "{\"external_reference\":\"c-2\",\"name\":\"N%s\",\"email\":\"n@example.com\"}", "name"),
                arguments("POST", "/billing/customers", "{\"external_reference\":\"c-2\",\"name\":\"N\",\"email\":\"a%s@example.com\"}", "email"),
                arguments("POST", "/billing/customers", "{\"external_reference\":\"c-2\",\"name\":\"N\",\"email\":\"n@example.com\","
                        + "\"metadata\":{\"k\":\"%s\"}}", "metadata.k"),
                arguments("PATCH", "/billing/customers/{customer}", "{\"name\":\"Ada %s\"}", "name"),
                arguments("PATCH", "/billing/customers/{customer}", "{\"email\":\"a%s@example.com\"}", "email"),
                arguments("PATCH", "/billing/customers/{customer}", "{\"metadata\":{\"k%s\":null}}", "metadata"),
                arguments("POST", "/billing/accounts", "{\"customer\":\"cus-1\",\"external_reference\":\"a-%s\",\"name\":\"A\"}", "external_reference"),
                arguments("POST", "/billing/accounts", "{\"customer\":\"cus-1%s\",\"external_reference\":\"a-2\",\"name\":\"A\"}", "customer"),
                arguments("POST", "/billing/accounts", "{\"customer\":{\"external_reference\":\"c-3\",\"name\":\"N%s\","
                        + "\"email\":\"n@example.com\"},\"external_reference\":\"a-2\",\"name\":\"A\"}", "customer.name"),
                arguments("PATCH", "/billing/accounts/{account}", "{\"name\":\"%s\"}", "name"),
                arguments("POST", "/billing/bills", "{\"customer\":\"cus-1\",\"external_reference\":\"b-%s\"," + bill + "}", "external_reference"),
                arguments("POST", "/billing/bills", "{\"account\":\"acc-1%s\",\"external_reference\":\"b-2\"," + bill + "}", "account"),
                arguments("PATCH", "/billing/bills/{bill}", "{\"metadata\":{\"k\":\"v%s\"}}", "metadata.k"),
                // billing test helper
                arguments("POST", "/billing/test_helpers/payments", "{\"customer\":\"cus-1%s\",\"amount\":100,\"currency\":\"ZAR\"}", "customer"),
                arguments("POST", "/billing/test_helpers/payments", "{\"bill\":\"bill-1\",\"amount\":100,\"currency\":\"ZA%s\"}", "currency"),
                // webhook endpoints
                arguments("POST", "/webhook_endpoints", "{\"url\":\"http://127.0.0.1:9/h\",\"enabled_events\":[\"*\"],"
                        + "\"description\":\"d%s\"}", "description"),
                arguments("POST", "/webhook_endpoints", "{\"url\":\"http://127.0.0.1:9/h%s\",\"enabled_events\":[\"*\"]}", "url"),
                arguments("POST", "/webhook_endpoints", "{\"url\":\"http://127.0.0.1:9/h\",\"enabled_events\":[\"*%s\"]}", "enabled_events[0]"),
                arguments("PATCH", "/webhook_endpoints/{endpoint}", "{\"description\":\"%s\"}", "description"));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("bodies")
    void aNulOrALoneSurrogateInAnyJsonStringIsABadRequestNamingTheFieldAndChangesNothing(String method, String path,
                                                                                         String template, String field) {
        Map<String, String> before = state();
        for (String bad : BAD_TEXTS) {
            String body = template.formatted(bad);
            var response = api.method(method, withIds(path), body).idempotencyKey(UUID.randomUUID().toString()).send();

            JsonNode problem = assertBadRequest(response, field);
            // The message says what is wrong, never quoting the text.
            assertThat(problem.get("errors").get(0).get("message").stringValue())
                    .containsAnyOf("NUL character", "unpaired UTF-16 surrogate");
            assertThat(response.text()).doesNotContain("\\u0000").doesNotContainIgnoringCase("\\ud800")
                    .doesNotContainIgnoringCase("\\udfff");
        }
        assertThat(state()).isEqualTo(before);
    }

    @Test
    void anEmailWithANulIsRefusedThoughItLooksLikeAnAddress() {
        var response = api.post("/billing/customers",
                "{\"external_reference\":\"nul-mail\",\"name\":\"Ada\",\"email\":\"a\\u0000@example.com\"}").send();

        assertBadRequest(response, "email");
        assertThat(api.get("/billing/customers?external_reference=nul-mail").send().json().get("data")).isEmpty();
    }

    @Test
    void aRefusedBodyLeavesItsIdempotencyKeyFreeForTheCorrectedRequest() {
        String key = UUID.randomUUID().toString();
        String pin = validPin();
        var refused = api.post("/collect/redemptions", "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\""
                + pin + "\"},\"external_reference\":\"sale-\\ud800\"}").idempotencyKey(key).send();
        assertBadRequest(refused, "external_reference");

        var corrected = api.post("/collect/redemptions", "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\""
                + pin + "\"},\"external_reference\":\"sale-1\"}").idempotencyKey(key).send();
        assertThat(corrected.status()).as(corrected.toString()).isEqualTo(201);
        assertThat(corrected.header("Idempotent-Replayed")).isNull();
        assertThat(corrected.json().get("status").stringValue()).isEqualTo("confirmed");
    }

    @Test
    void severalBadStringsAreNamedInOneAnswer() {
        var response = api.post("/collect/redemptions", "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\""
                + validPin() + "\"},\"external_reference\":\"\\u0000\",\"metadata\":{\"a\":\"\\ud800\",\"b\":\"ok\"},"
                + "\"related_ids\":[\"\\udfff\"]}").send();

        assertBadRequest(response, "external_reference", "metadata.a", "related_ids[0]");
    }

    static Stream<Arguments> invalidUtf8() {
        return Stream.of(
                arguments("a byte that starts nothing", new int[]{0xFF}, "metadata.note"),
                arguments("an encoded surrogate (CESU-8)", new int[]{0xED, 0xA0, 0x80}, "metadata.note"),
                arguments("a sequence cut short", new int[]{0xC3}, "metadata.note"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidUtf8")
    void bytesThatAreNotUtf8AreABadRequestNamingTheField(String name, int[] bytes, String field) {
        Map<String, String> before = state();
        byte[] body = bodyWith("{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + validPin()
                + "\"},\"metadata\":{\"note\":\"a", bytes, "b\"}}");

        var response = api.postBytes("/collect/redemptions", body).idempotencyKey(UUID.randomUUID().toString()).send();

        JsonNode problem = assertBadRequest(response, field);
        assertThat(problem.get("errors").get(0).get("message").stringValue()).isEqualTo("is not valid UTF-8 text");
        assertThat(state()).isEqualTo(before);
    }

    @Test
    void bytesThatAreNotUtf8InAPropertyNameOrAnArrayNameTheirPlace() {
        byte[] inName = bodyWith("{\"type\":\"vouchers.one_voucher\",\"metadata\":{\"a", new int[]{0xFF}, "\":\"x\"}}");
        assertBadRequest(api.postBytes("/collect/redemptions", inName).send(), "metadata");
        byte[] inLaterName = bodyWith("{\"type\":\"vouchers.one_voucher\",\"metadata\":{\"ok\":\"1\",\"a", new int[]{0xFF}, "\":\"x\"}}");
        assertBadRequest(api.postBytes("/collect/redemptions", inLaterName).send(), "metadata");
        byte[] inArray = bodyWith("{\"type\":\"vouchers.one_voucher\",\"related_ids\":[\"ok\",\"a", new int[]{0xFF}, "\"]}");
        assertBadRequest(api.postBytes("/collect/redemptions", inArray).send(), "related_ids[1]");
    }

    @Test
    void overlongAndOutOfRangeUtf8ThatTheParserLetsThroughIsCaughtAsText() {
        // C0 80 is the overlong form of NUL; F4 90 80 80 lies beyond U+10FFFF and decodes to two lone surrogates.
        byte[] overlongNul = bodyWith("{\"type\":\"vouchers.one_voucher\",\"external_reference\":\"a", new int[]{0xC0, 0x80}, "\"}");
        assertBadRequest(api.postBytes("/collect/redemptions", overlongNul).send(), "external_reference");
        byte[] beyond = bodyWith("{\"type\":\"vouchers.one_voucher\",\"external_reference\":\"a", new int[]{0xF4, 0x90, 0x80, 0x80}, "\"}");
        assertBadRequest(api.postBytes("/collect/redemptions", beyond).send(), "external_reference");
    }

    private static byte[] bodyWith(String before, int[] bytes, String after) {
        byte[] head = before.getBytes(StandardCharsets.UTF_8);
        byte[] tail = after.getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[head.length + bytes.length + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        for (int i = 0; i < bytes.length; i++) {
            body[head.length + i] = (byte) bytes[i];
        }
        System.arraycopy(tail, 0, body, head.length + bytes.length, tail.length);
        return body;
    }

    static Stream<Arguments> queries() {
        return Stream.of(
                arguments("/collect/redemptions?external_reference=sale-%s", "external_reference"),
                arguments("/collect/redemptions?status=confirmed&type=%s", "type"),
                arguments("/billing/customers?external_reference=%s", "external_reference"),
                arguments("/billing/accounts?customer=cus-1%s", "customer"),
                arguments("/billing/accounts?external_reference=%s", "external_reference"),
                arguments("/billing/bills?customer=%s", "customer"),
                arguments("/billing/bills?account=acc-1%s&status=open", "account"),
                arguments("/events?type=%s", "type"),
                arguments("/webhook_endpoints?cursor=%s", "cursor"),
                arguments("/webhook_endpoints/{endpoint}/deliveries?event_id=%s", "event_id"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void aNulOrAnEncodedSurrogateInAQueryParameterIsABadRequestNamingIt(String template, String parameter) {
        // %00 decodes to NUL; %ED%A0%80 is U+D800 encoded as if it were a character, which is not UTF-8.
        for (String bad : List.of("%00", "x%00y", "%ED%A0%80", "%ED%BF%BF")) {
            var response = api.get(withIds(template.formatted(bad))).send();
            JsonNode problem = assertBadRequest(response, parameter);
            assertThat(problem.get("errors").get(0).get("message").stringValue())
                    .containsAnyOf("NUL character", "not valid UTF-8");
        }
    }

    @Test
    void aNulInAQueryParameterNameIsABadRequestThatDoesNotEchoIt() {
        var response = api.get("/collect/redemptions?ex%00ternal=1").send();

        assertBadRequest(response, "query");
        assertThat(response.text()).doesNotContain("\\u0000");
    }

    @Test
    void aQueryIsCheckedOnlyAfterTheKey() {
        var response = anonymous().get("/collect/redemptions?external_reference=%00").send();

        assertProblem(response, 401, "unauthorized");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/collect/redemptions/%00", "/collect/redemptions/rdm_%ED%A0%80", "/billing/customers/%FF",
            "/billing/bills/bill%00x", "/webhook_endpoints/%C3"})
    void aNulOrInvalidUtf8InAPathIsABadRequestNotAFailure(String path) {
        assertProblem(api.get(path).send(), 400, "bad_request");
    }

    @Test
    void validNonAsciiTextRoundTripsExactly() {
        // Accents, CJK, an emoji sent raw (UTF-8) and one sent as a JSON surrogate-pair escape.
        String text = "Zoë Ångström 東京 ñandú 😀";
        String escapedEmoji = "\\ud83c\\udf89";
        var created = api.post("/collect/redemptions", "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\""
                + validPin() + "\"},\"external_reference\":\"" + text + "\",\"metadata\":{\"café\":\"" + text + escapedEmoji
                + "\"},\"related_ids\":[\"" + text + "\"],\"redemption_options\":{\"ラベル\":\"" + text + "\"}}").send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode r = api.get("/collect/redemptions/" + created.json().get("id").stringValue()).send().json();
        assertThat(r.get("external_reference").stringValue()).isEqualTo(text);
        assertThat(r.get("metadata").get("café").stringValue()).isEqualTo(text + "🎉");
        assertThat(r.get("related_ids").get(0).stringValue()).isEqualTo(text);
        assertThat(r.get("redemption_options").get("ラベル").stringValue()).isEqualTo(text);
        var listed = api.get("/collect/redemptions?external_reference=" + URLEncoder.encode(text, StandardCharsets.UTF_8)).send();
        assertThat(listed.json().get("data")).hasSize(1);
        assertThat(listed.json().get("data").get(0).get("id")).isEqualTo(r.get("id"));

        // Billing references are ASCII by rule (they name resources in paths); names, emails and metadata are not.
        String customer = created(api.post("/billing/customers", "{\"external_reference\":\"zoe-1\",\"name\":\""
                + text + "\",\"email\":\"zoë@exämple.com\",\"metadata\":{\"k\":\"" + text + "\"}}"));
        JsonNode fetched = api.get("/billing/customers/" + customer).send().json();
        assertThat(fetched.get("name").stringValue()).isEqualTo(text);
        assertThat(fetched.get("email").stringValue()).isEqualTo("zoë@exämple.com");
        assertThat(fetched.get("metadata").get("k").stringValue()).isEqualTo(text);

        var patched = api.patch(withIds("/webhook_endpoints/{endpoint}"), "{\"description\":\"" + text + "\"}").send();
        assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
        assertThat(api.get(withIds("/webhook_endpoints/{endpoint}")).send().json().get("description").stringValue())
                .isEqualTo(text);
    }
}
