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
