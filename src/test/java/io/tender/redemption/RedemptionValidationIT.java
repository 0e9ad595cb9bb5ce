package io.tender.redemption;

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

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Every bad create request is a 400 problem naming each bad field (decisions §1, §2), or the 404/405/413/415 that
 * fits, and none of them leaves a redemption, an event or an Idempotency-Key behind.
 */
class RedemptionValidationIT extends ApiIntegrationTest {

    private static final String PIN = "4000123412341237";
    private static final String ONE_VOUCHER = "\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + PIN + "\"}";
    private static final String OTT = "\"type\":\"vouchers.ott\"";
    private static final String PROVIDER_C = "\"type\":\"vouchers.provider_c\"";

    private Merchant merchant;
    private Api api;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        api = merchant.test();
    }

    private void assertNothingStored() {
        assertThat(rows("redemptions")).as("redemptions").isZero();
        assertThat(rows("outbox")).as("outbox events").isZero();
        assertThat(rows("idempotency_keys")).as("idempotency keys").isZero();
    }

    private long rows(String table) {
        return jdbc.sql("select count(*) from " + table + " where merchant_id = ?").param(merchant.id())
                .query(Long.class).single();
    }

    /** Every request carries a fresh Idempotency-Key, so a key stored by mistake would show in the table. */
    private Api.Response post(String body) {
        return api.post("/collect/redemptions", body).idempotencyKey(UUID.randomUUID().toString()).send();
    }

    static Stream<Arguments> invalidBodies() {
        String tooManyMetadata = IntStream.range(0, 21).mapToObj(i -> "\"k" + i + "\":\"v\"")
                .collect(Collectors.joining(",", "{", "}"));
        String twentyMetadata = IntStream.range(0, 20).mapToObj(i -> "\"k" + i + "\":\"v\"")
                .collect(Collectors.joining(",", "{", "}"));
        String tooManyIds = IntStream.range(0, 21).mapToObj(i -> "\"id" + i + "\"")
                .collect(Collectors.joining(",", "[", "]"));
        return Stream.of(
                // the body itself
                arguments("an array body", "[]", new String[]{"body"}),
                arguments("a string body", "\"" + PIN + "\"", new String[]{"body"}),
                arguments("a number body", "42", new String[]{"body"}),
                arguments("an empty object", "{}", new String[]{"type", "source"}),
                arguments("a JSON null body", "null", new String[]{"type", "source"}),
                // type and source
                arguments("no source", "{\"type\":\"vouchers.one_voucher\"}", new String[]{"source"}),
                arguments("no type", "{\"source\":{\"pin\":\"" + PIN + "\"}}", new String[]{"type"}),
                arguments("a null type", "{\"type\":null,\"source\":{\"pin\":\"" + PIN + "\"}}", new String[]{"type"}),
                arguments("an unknown type", "{\"type\":\"loyalty.points\",\"source\":{\"pin\":\"" + PIN + "\"}}",
                        new String[]{"type"}),
                arguments("a type of the wrong case", "{\"type\":\"Vouchers.One_Voucher\",\"source\":{\"pin\":\"" + PIN + "\"}}",
                        new String[]{"type"}),
                arguments("a numeric type", "{\"type\":1,\"source\":{\"pin\":\"" + PIN + "\"}}", new String[]{"type"}),
                arguments("a string source", "{\"type\":\"vouchers.one_voucher\",\"source\":\"" + PIN + "\"}",
                        new String[]{"source"}),
                arguments("an array source", "{\"type\":\"vouchers.one_voucher\",\"source\":[\"" + PIN + "\"]}",
                        new String[]{"source"}),
                arguments("unknown top-level properties", "{" + ONE_VOUCHER + ",\"tip\":100,\"customer\":\"x\"}",
                        new String[]{"tip", "customer"}),
                arguments("unknown source properties",
                        "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + PIN + "\",\"cvv\":\"123\",\"expiry\":\"12/30\"}}",
                        new String[]{"source.cvv", "source.expiry"}),
                arguments("another type's source", "{" + OTT + ",\"source\":{\"token\":\"" + PIN + "\"}}",
                        new String[]{"source.token", "source.pin", "source.phone_number"}),
                // vouchers.one_voucher: a 16-digit PIN
                arguments("one_voucher without pin", "{\"type\":\"vouchers.one_voucher\",\"source\":{}}",
                        new String[]{"source.pin"}),
                arguments("one_voucher pin of 15 digits", oneVoucher("400012341234123"), new String[]{"source.pin"}),
                arguments("one_voucher pin of 17 digits", oneVoucher("40001234123412377"), new String[]{"source.pin"}),
                arguments("one_voucher pin with a letter", oneVoucher("400012341234123A"), new String[]{"source.pin"}),
                arguments("one_voucher pin with spaces", oneVoucher("4000 1234 1234 12"), new String[]{"source.pin"}),
                arguments("one_voucher pin as a number",
                        "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":" + PIN + "}}", new String[]{"source.pin"}),
                // vouchers.ott: pin and an E.164 phone number
                arguments("ott without pin", "{" + OTT + ",\"source\":{\"phone_number\":\"+27821234567\"}}",
                        new String[]{"source.pin"}),
                arguments("ott without phone_number", "{" + OTT + ",\"source\":{\"pin\":\"" + PIN + "\"}}",
                        new String[]{"source.phone_number"}),
                arguments("ott with a national phone number",
                        "{" + OTT + ",\"source\":{\"pin\":\"" + PIN + "\",\"phone_number\":\"0821234567\"}}",
                        new String[]{"source.phone_number"}),
                arguments("ott with a phone number starting +0",
                        "{" + OTT + ",\"source\":{\"pin\":\"" + PIN + "\",\"phone_number\":\"+0821234567\"}}",
                        new String[]{"source.phone_number"}),
                arguments("ott with spaces in the phone number",
                        "{" + OTT + ",\"source\":{\"pin\":\"" + PIN + "\",\"phone_number\":\"+27 82 123 4567\"}}",
                        new String[]{"source.phone_number"}),
                arguments("ott with a 16-digit phone number",
                        "{" + OTT + ",\"source\":{\"pin\":\"" + PIN + "\",\"phone_number\":\"+2782123456789012\"}}",
                        new String[]{"source.phone_number"}),
                arguments("ott with a numeric phone number",
                        "{" + OTT + ",\"source\":{\"pin\":\"" + PIN + "\",\"phone_number\":27821234567}}",
                        new String[]{"source.phone_number"}),
                arguments("ott with a 3-character pin",
                        "{" + OTT + ",\"source\":{\"pin\":\"123\",\"phone_number\":\"+27821234567\"}}",
                        new String[]{"source.pin"}),
                arguments("ott with punctuation in the pin",
                        "{" + OTT + ",\"source\":{\"pin\":\"1234!5678\",\"phone_number\":\"+27821234567\"}}",
                        new String[]{"source.pin"}),
                arguments("ott with neither", "{" + OTT + ",\"source\":{}}",
                        new String[]{"source.pin", "source.phone_number"}),
                // vouchers.provider_c: a token
                arguments("provider_c without token", "{" + PROVIDER_C + ",\"source\":{}}", new String[]{"source.token"}),
                arguments("provider_c with a pin instead of a token",
                        "{" + PROVIDER_C + ",\"source\":{\"pin\":\"" + PIN + "\"}}", new String[]{"source.pin", "source.token"}),
                arguments("provider_c with a 3-character token", "{" + PROVIDER_C + ",\"source\":{\"token\":\"abc\"}}",
                        new String[]{"source.token"}),
                arguments("provider_c with a 65-character token",
                        "{" + PROVIDER_C + ",\"source\":{\"token\":\"" + "7".repeat(65) + "\"}}", new String[]{"source.token"}),
                arguments("provider_c with a space in the token",
                        "{" + PROVIDER_C + ",\"source\":{\"token\":\"ab cd\"}}", new String[]{"source.token"}),
                arguments("provider_c with a numeric token",
                        "{" + PROVIDER_C + ",\"source\":{\"token\":12345678}}", new String[]{"source.token"}),
                // amount and currency
                arguments("amount 0", "{" + ONE_VOUCHER + ",\"amount\":0,\"currency\":\"ZAR\"}", new String[]{"amount"}),
                arguments("a negative amount", "{" + ONE_VOUCHER + ",\"amount\":-100,\"currency\":\"ZAR\"}",
                        new String[]{"amount"}),
                arguments("a decimal amount", "{" + ONE_VOUCHER + ",\"amount\":10.5,\"currency\":\"ZAR\"}",
                        new String[]{"amount"}),
                arguments("an amount of 1.0", "{" + ONE_VOUCHER + ",\"amount\":1.0,\"currency\":\"ZAR\"}",
                        new String[]{"amount"}),
                arguments("an amount in exponent form", "{" + ONE_VOUCHER + ",\"amount\":1e2,\"currency\":\"ZAR\"}",
                        new String[]{"amount"}),
                arguments("a string amount", "{" + ONE_VOUCHER + ",\"amount\":\"100\",\"currency\":\"ZAR\"}",
                        new String[]{"amount"}),
                arguments("a boolean amount", "{" + ONE_VOUCHER + ",\"amount\":true,\"currency\":\"ZAR\"}",
                        new String[]{"amount"}),
                arguments("an amount above 99999999", "{" + ONE_VOUCHER + ",\"amount\":100000000,\"currency\":\"ZAR\"}",
                        new String[]{"amount"}),
                arguments("an amount beyond 64 bits",
                        "{" + ONE_VOUCHER + ",\"amount\":123456789012345678901234567890,\"currency\":\"ZAR\"}",
                        new String[]{"amount"}),
                arguments("an amount without currency", "{" + ONE_VOUCHER + ",\"amount\":100}", new String[]{"currency"}),
                arguments("a lower-case currency", "{" + ONE_VOUCHER + ",\"amount\":100,\"currency\":\"zar\"}",
                        new String[]{"currency"}),
                arguments("the no-currency code XXX", "{" + ONE_VOUCHER + ",\"amount\":100,\"currency\":\"XXX\"}",
                        new String[]{"currency"}),
                arguments("the unassigned code ZZZ", "{" + ONE_VOUCHER + ",\"amount\":100,\"currency\":\"ZZZ\"}",
                        new String[]{"currency"}),
                arguments("a 2-letter currency", "{" + ONE_VOUCHER + ",\"amount\":100,\"currency\":\"ZA\"}",
                        new String[]{"currency"}),
                arguments("a 4-letter currency", "{" + ONE_VOUCHER + ",\"currency\":\"ZARR\"}", new String[]{"currency"}),
                arguments("a numeric currency", "{" + ONE_VOUCHER + ",\"currency\":710}", new String[]{"currency"}),
                // metadata
                arguments("21 metadata keys", "{" + ONE_VOUCHER + ",\"metadata\":" + tooManyMetadata + "}",
                        new String[]{"metadata"}),
                arguments("a 41-character metadata key",
                        "{" + ONE_VOUCHER + ",\"metadata\":{\"" + "k".repeat(41) + "\":\"v\"}}", new String[]{"metadata"}),
                arguments("an empty metadata key", "{" + ONE_VOUCHER + ",\"metadata\":{\"\":\"v\"}}", new String[]{"metadata"}),
                arguments("a 501-character metadata value",
                        "{" + ONE_VOUCHER + ",\"metadata\":{\"note\":\"" + "v".repeat(501) + "\"}}", new String[]{"metadata.note"}),
                arguments("a numeric metadata value", "{" + ONE_VOUCHER + ",\"metadata\":{\"till\":7}}",
                        new String[]{"metadata.till"}),
                arguments("an object metadata value", "{" + ONE_VOUCHER + ",\"metadata\":{\"till\":{\"id\":\"7\"}}}",
                        new String[]{"metadata.till"}),
                arguments("an array for metadata", "{" + ONE_VOUCHER + ",\"metadata\":[\"a\"]}", new String[]{"metadata"}),
                // related_ids
                arguments("21 related ids", "{" + ONE_VOUCHER + ",\"related_ids\":" + tooManyIds + "}",
                        new String[]{"related_ids"}),
                arguments("a 256-character related id",
                        "{" + ONE_VOUCHER + ",\"related_ids\":[\"" + "r".repeat(256) + "\"]}", new String[]{"related_ids[0]"}),
                arguments("a numeric related id", "{" + ONE_VOUCHER + ",\"related_ids\":[\"order_1\",2]}",
                        new String[]{"related_ids[1]"}),
                arguments("an empty related id", "{" + ONE_VOUCHER + ",\"related_ids\":[\"\"]}", new String[]{"related_ids[0]"}),
                arguments("a string for related_ids", "{" + ONE_VOUCHER + ",\"related_ids\":\"order_1\"}",
                        new String[]{"related_ids"}),
                // external_reference and redemption_options
                arguments("a 256-character external_reference",
                        "{" + ONE_VOUCHER + ",\"external_reference\":\"" + "e".repeat(256) + "\"}",
                        new String[]{"external_reference"}),
                arguments("an empty external_reference", "{" + ONE_VOUCHER + ",\"external_reference\":\"\"}",
                        new String[]{"external_reference"}),
                arguments("a numeric external_reference", "{" + ONE_VOUCHER + ",\"external_reference\":42}",
                        new String[]{"external_reference"}),
                arguments("an array for redemption_options", "{" + ONE_VOUCHER + ",\"redemption_options\":[1]}",
                        new String[]{"redemption_options"}),
                arguments("a string for redemption_options", "{" + ONE_VOUCHER + ",\"redemption_options\":\"fast\"}",
                        new String[]{"redemption_options"}),
                // everything at once: one response names every problem
                arguments("many problems at once",
                        "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"123\",\"cvv\":\"1\"},\"amount\":0,"
                                + "\"currency\":\"zar\",\"metadata\":{\"k\":1},\"related_ids\":[1],\"external_reference\":\"\","
                                + "\"redemption_options\":1,\"tip\":5}",
                        new String[]{"tip", "source.cvv", "source.pin", "amount", "currency", "metadata.k",
                                "related_ids[0]", "external_reference", "redemption_options"}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidBodies")
    void anInvalidBodyIsABadRequestNamingEachFieldAndCreatesNothing(String description, String body, String[] fields) {
        assertBadRequest(post(body), fields);
        assertNothingStored();
    }

    @Test
    void theMessagesSayWhatIsWrongWithoutRepeatingTheValue() {
        JsonNode problem = assertBadRequest(post("{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"400012341234123\"},"
                + "\"amount\":123456789012345678901234567890,\"currency\":\"zar\"}"), "source.pin", "amount", "currency");
        assertThat(messageOf(problem, "source.pin")).isEqualTo("must be exactly 16 characters");
        assertThat(messageOf(problem, "amount")).isEqualTo("must be at most 99999999");
        assertThat(messageOf(problem, "currency")).contains("upper-case");
        assertThat(problem.toString()).doesNotContain("400012341234123").doesNotContain("zar");

        JsonNode zero = assertBadRequest(post("{" + ONE_VOUCHER + ",\"amount\":0,\"currency\":\"ZAR\"}"), "amount");
        assertThat(messageOf(zero, "amount")).isEqualTo("must be at least 1");
        assertThat(zero.get("detail").stringValue()).isEqualTo("amount: must be at least 1");
        assertNothingStored();
    }

    private static String messageOf(JsonNode problem, String field) {
        for (JsonNode error : problem.get("errors")) {
            if (error.get("field").stringValue().equals(field)) {
                return error.get("message").stringValue();
            }
        }
        throw new AssertionError("no error for " + field + " in " + problem);
    }

    @Test
    void theLimitsThemselvesAreAccepted() {
        // The boundary values of the rejected cases above are valid: this is what makes those rejections meaningful.
        String metadata = IntStream.range(0, 20).mapToObj(i -> "\"" + "k".repeat(38) + String.format("%02d", i)
                + "\":\"" + "v".repeat(500) + "\"").collect(Collectors.joining(",", "{", "}"));
        String relatedIds = IntStream.range(0, 20).mapToObj(i -> "\"" + "r".repeat(255) + "\"")
                .collect(Collectors.joining(",", "[", "]"));
        var response = api.post("/collect/redemptions", "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\""
                + validPin() + "\"},\"amount\":1,\"currency\":\"ZAR\",\"metadata\":" + metadata + ",\"related_ids\":"
                + relatedIds + ",\"external_reference\":\"" + "e".repeat(255) + "\"}").send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        assertThat(response.json().get("metadata").size()).isEqualTo(20);
        assertThat(response.json().get("related_ids").size()).isEqualTo(20);
        assertThat(response.json().get("external_reference").stringValue()).hasSize(255);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + PIN + "\"}",
            "{\"type\":\"vouchers.one_voucher\" \"source\":{}}",
            "{\"type\":'vouchers.one_voucher'}",
            "{type:\"vouchers.one_voucher\"}",
            "{\"type\":\"vouchers.one_voucher\",}",
            "{} {}",
            "{\"amount\":0x10}"})
    void malformedJsonIsABadRequestAboutTheBody(String body) {
        JsonNode problem = assertBadRequest(post(body), "body");
        assertThat(problem.get("detail").stringValue()).contains("JSON");
        assertNothingStored();
    }

    @Test
    void duplicatePropertiesAreRefusedRatherThanGuessedAt() {
        JsonNode top = assertBadRequest(post("{\"type\":\"vouchers.one_voucher\",\"type\":\"vouchers.ott\","
                + "\"source\":{\"pin\":\"" + PIN + "\"}}"), "body");
        assertThat(top.get("errors").get(0).get("message").stringValue()).contains("\"type\"");

        JsonNode nested = assertBadRequest(post("{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + PIN
                + "\",\"pin\":\"4000123412340002\"}}"), "body");
        assertThat(nested.get("errors").get(0).get("message").stringValue()).contains("\"pin\"");
        assertNothingStored();
    }

    @Test
    void anEmptyBodyIsABadRequestNamingTheRequiredFields() {
        assertBadRequest(api.post("/collect/redemptions", "").idempotencyKey(UUID.randomUUID().toString()).send(),
                "type", "source");
        assertNothingStored();
    }

    @Test
    void anEmptyIdempotencyKeyIsABadRequest() {
        assertBadRequest(api.post("/collect/redemptions", "{" + ONE_VOUCHER + "}").idempotencyKey("").send(),
                "Idempotency-Key");
        assertNothingStored();
    }

    @Test
    void anIdempotencyKeyOf201CharactersIsABadRequest() {
        assertBadRequest(api.post("/collect/redemptions", "{" + ONE_VOUCHER + "}").idempotencyKey("k".repeat(201)).send(),
                "Idempotency-Key");
        assertNothingStored();
    }

    @Test
    void aBadRequestDoesNotUseUpItsIdempotencyKey() {
        String key = UUID.randomUUID().toString();
        assertBadRequest(api.post("/collect/redemptions", "{" + ONE_VOUCHER + ",\"amount\":0,\"currency\":\"ZAR\"}")
                .idempotencyKey(key).send(), "amount");
        assertNothingStored();

        var created = api.post("/collect/redemptions", oneVoucher(validPin())).idempotencyKey(key).send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.header("Idempotent-Replayed")).isNull();
        assertThat(created.json().get("status").stringValue()).isEqualTo("confirmed");
        assertThat(rows("idempotency_keys")).isEqualTo(1);
    }

    @ParameterizedTest(name = "Content-Type {0}")
    @ValueSource(strings = {"text/plain", "application/x-www-form-urlencoded", "application/xml"})
    void aBodyThatIsNotJsonIsAnUnsupportedMediaType(String contentType) {
        var response = api.post("/collect/redemptions", "{" + ONE_VOUCHER + "}").contentType(contentType)
                .idempotencyKey(UUID.randomUUID().toString()).send();
        assertProblem(response, 415, "bad_request");
        assertNothingStored();
    }

    @Test
    void aBodyWithoutContentTypeIsAnUnsupportedMediaType() {
        var response = api.post("/collect/redemptions", "{" + ONE_VOUCHER + "}").contentType(null)
                .idempotencyKey(UUID.randomUUID().toString()).send();
        assertProblem(response, 415, "bad_request");
        assertNothingStored();
    }

    @Test
    void aBodyDeclaredLargerThan64KibIsRefusedWith413() throws Exception {
        HttpResponse<String> response = sendLarge(HttpRequest.BodyPublishers.ofByteArray(largeBody()));
        assertThat(response.headers().firstValue("Content-Length")).isPresent();
        assertLargeRefused(response);
        assertNothingStored();
    }

    @Test
    void aChunkedBodyLongerThan64KibIsRefusedWith413() throws Exception {
        byte[] body = largeBody();
        // A stream of unknown length: the JDK client sends it chunked, without Content-Length.
        HttpResponse<String> response = sendLarge(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)));
        assertLargeRefused(response);
        assertNothingStored();
    }

    @Test
    void aBodyOfJustUnder64KibIsStillRead() throws Exception {
        // 64 KiB is the limit, not something lower: a body just below it reaches validation.
        String padding = "x".repeat(64 * 1024 - 200);
        byte[] body = ("{" + ONE_VOUCHER + ",\"redemption_options\":{\"padding\":\"" + padding + "\"},\"tip\":1}")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(body.length).isLessThan(64 * 1024);
        var response = sendLarge(HttpRequest.BodyPublishers.ofByteArray(body));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"field\":\"tip\"");
        assertNothingStored();
    }

    private static byte[] largeBody() {
        String padding = "x".repeat(70_000);
        return ("{" + ONE_VOUCHER + ",\"redemption_options\":{\"padding\":\"" + padding + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private HttpResponse<String> sendLarge(HttpRequest.BodyPublisher body) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create(base() + "/collect/redemptions"))
                .header("Authorization", "Bearer " + api.key())
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .POST(body).build();
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        }
    }

    private void assertLargeRefused(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(413);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        JsonNode problem = Api.JSON.readTree(response.body());
        assertThat(problem.get("code").stringValue()).isEqualTo("bad_request");
        assertThat(problem.get("status").intValue()).isEqualTo(413);
        assertThat(problem.get("request_id").stringValue()).isEqualTo(response.headers().firstValue("Request-Id").orElse(null));
    }

    @Test
    void aWrongMethodIs405WithTheAllowedOnes() {
        var put = api.method("PUT", "/collect/redemptions", "{" + ONE_VOUCHER + "}").send();
        assertProblem(put, 405, "bad_request");
        assertThat(put.header("Allow")).contains("GET").contains("POST");

        var delete = api.delete("/collect/redemptions/rdm_0123456789abcdef01234567").send();
        assertProblem(delete, 405, "bad_request");
        assertThat(delete.header("Allow")).isEqualTo("GET");
        assertNothingStored();
    }

    @Test
    void anUnknownPathIs404ResourceNotFound() {
        assertProblem(api.get("/collect/redemption").send(), 404, "resource_not_found");
        assertProblem(api.post("/collect/redemptions/rdm_0123456789abcdef01234567/capture", "{}").send(),
                404, "resource_not_found");
        assertProblem(anonymous().get("/nowhere").send(), 404, "resource_not_found");
        assertNothingStored();
    }
}
