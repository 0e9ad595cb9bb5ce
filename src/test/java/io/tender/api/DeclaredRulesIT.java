package io.tender.api;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service and its document agree on single values where a schema-driven tester (Schemathesis, issue 36) found
 * they did not: an RFC 3339 timestamp with any UTC offset RFC 3339 allows, lengths counted in characters as JSON
 * Schema counts them, and the email rule the document declares.
 */
class DeclaredRulesIT extends ApiIntegrationTest {

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");
    private static final String EMOJI = "\uD83D\uDE00"; // one character, two UTF-16 units

    private Api api;

    @BeforeEach
    void merchant() {
        api = merchants.create().test();
    }

    /** The instant written with a UTC offset of hours:minutes, which java.time's ZoneOffset cannot hold past 18. */
    private static String withOffset(Instant instant, int hours, int minutes) {
        LocalDateTime local = LocalDateTime.ofEpochSecond(instant.getEpochSecond() + hours * 3600L + minutes * 60L,
                0, ZoneOffset.UTC);
        return LOCAL.format(local) + String.format("+%02d:%02d", hours, minutes);
    }

    private static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Test
    void aListFilterTakesATimestampWithAnyOffsetRfc3339Allows() {
        var created = api.post("/collect/redemptions", "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\""
                + validPin() + "\"}}").send();
        assertThat(created.status()).isEqualTo(201);
        Instant at = Instant.parse(created.json().get("created_at").stringValue());

        var before = api.get("/collect/redemptions?created_at%5Bgte%5D=" + query(withOffset(at.minusSeconds(60), 23, 59)))
                .send();
        assertThat(before.status()).as(before.toString()).isEqualTo(200);
        assertThat(before.json().get("data")).hasSize(1);
        var after = api.get("/collect/redemptions?created_at%5Bgte%5D=" + query(withOffset(at.plusSeconds(60), 19, 30)))
                .send();
        assertThat(after.status()).as(after.toString()).isEqualTo(200);
        assertThat(after.json().get("data")).isEmpty();
        var lowercase = api.get("/collect/redemptions?created_at%5Blt%5D=2999-01-01t00:00:00.5z").send();
        assertThat(lowercase.json().get("data")).hasSize(1);

        // Not RFC 3339: an offset hour of 24, and a date-time without its offset.
        assertBadRequest(api.get("/collect/redemptions?created_at%5Bgte%5D=" + query("2026-05-20T08:25:01+24:00"))
                .send(), "created_at[gte]");
        assertBadRequest(api.get("/collect/redemptions?created_at%5Blt%5D=2026-05-20T08:25:01").send(), "created_at[lt]");
    }

    @Test
    void lengthsAreCountedInCharactersNotUtf16Units() {
        String key = EMOJI.repeat(40);
        String value = EMOJI.repeat(500);
        var created = api.post("/billing/customers", "{\"external_reference\":\"c-1\",\"name\":\"" + EMOJI.repeat(255) + "\","
                + "\"email\":\"ada@example.com\","
                + "\"metadata\":{\"" + key + "\":\"" + value + "\"}}").send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("metadata").get(key).stringValue()).isEqualTo(value);

        assertBadRequest(api.post("/billing/customers", "{\"external_reference\":\"c-2\",\"name\":\"Ada\","
                + "\"email\":\"ada@example.com\",\"metadata\":{\"k\":\"" + value + EMOJI + "\"}}").send(), "metadata.k");
        assertBadRequest(api.post("/billing/customers", "{\"external_reference\":\"c-3\",\"name\":\"Ada\","
                + "\"email\":\"ada@example.com\",\"metadata\":{\"" + key + EMOJI + "\":\"v\"}}").send(), "metadata");
    }

    /**
     * An action that takes no input declares no request body now; a client that sends {@code {}} (as the document
     * said before) is still answered as one that sends nothing, and a property is still refused.
     */
    @Test
    void anActionWithoutInputTakesNoBodyOrAnEmptyObject() {
        String[] sessions = new String[3];
        for (int i = 0; i < sessions.length; i++) {
            var session = api.post("/collect/payment_sessions", "{\"amount\":1000,\"currency\":\"ZAR\"}").send();
            assertThat(session.status()).isEqualTo(201);
            sessions[i] = "/collect/payment_sessions/" + session.json().get("id").stringValue() + "/cancel";
        }
        assertThat(api.post(sessions[0], null).send().status()).isEqualTo(200);
        assertThat(api.post(sessions[1], "{}").send().status()).isEqualTo(200);
        assertBadRequest(api.post(sessions[2], "{\"reason\":\"x\"}").send(), "reason");

        var endpoint = api.post("/webhook_endpoints", "{\"url\":\"http://127.0.0.1:9/hook\",\"enabled_events\":[\"redemption.reversed\"]}")
                .send();
        assertThat(endpoint.status()).as(endpoint.toString()).isEqualTo(201);
        String rotate = "/webhook_endpoints/" + endpoint.json().get("id").stringValue() + "/rotate_secret";
        assertThat(api.post(rotate, null).send().status()).isEqualTo(200);
        assertThat(api.post(rotate, "{}").send().status()).isEqualTo(200);

        JsonNode document = anonymous().get("/openapi.json").send().json();
        assertThat(document.path("paths").path("/collect/payment_sessions/{id}/cancel").path("post").has("requestBody"))
                .isFalse();
        assertThat(document.path("paths").path("/webhook_endpoints/{id}/rotate_secret").path("post").has("requestBody"))
                .isFalse();
    }

    @Test
    void theEmailRuleIsTheOneTheDocumentDeclares() {
        JsonNode email = anonymous().get("/openapi.json").send().json().path("components").path("schemas")
                .path("CreateCustomerRequest").path("properties").path("email");
        Pattern declared = Pattern.compile(email.path("pattern").stringValue());
        assertThat(email.path("format").stringValue()).isEqualTo("email");

        // A dot-less domain is a valid `format: email` but not the service's rule: the declared pattern says so.
        assertThat(declared.matcher("0@com").find()).isFalse();
        assertBadRequest(api.post("/billing/customers",
                "{\"external_reference\":\"c-4\",\"name\":\"Ada\",\"email\":\"0@com\"}").send(), "email");
        assertThat(declared.matcher("0@example.com").find()).isTrue();
        assertThat(api.post("/billing/customers",
                "{\"external_reference\":\"c-5\",\"name\":\"Ada\",\"email\":\"0@example.com\"}").send().status())
                .isEqualTo(201);
    }
}
