package io.tender.idempotency;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** What an Idempotency-Key is bound to (decisions §1, §15): method, path, the API version and the canonical body. */
class RequestFingerprintTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PATH = "/collect/redemptions";
    private static final String VERSION = "2026-06-01";

    private static RequestFingerprint of(String method, String path, String body) {
        return RequestFingerprint.of(method, path, VERSION, body == null ? null : JSON.readTree(body));
    }

    private static JsonNode json(String body) {
        return JSON.readTree(body);
    }

    @Test
    void propertyOrderAtAnyDepthAndWhitespaceDoNotMatter() {
        var first = of("POST", PATH, "{\"type\":\"t\",\"source\":{\"pin\":\"1\",\"phone_number\":\"2\"},\"metadata\":{\"a\":\"1\",\"b\":\"2\"}}");
        var reordered = of("POST", PATH, " { \"metadata\" : {\"b\":\"2\",\"a\":\"1\"},\n\t\"source\":{\"phone_number\":\"2\",\"pin\":\"1\"},"
                + "\"type\":\"t\" } ");
        assertThat(reordered).isEqualTo(first);
        assertThat(reordered.hashCode()).isEqualTo(first.hashCode());
        assertThat(reordered.sameAs("POST", PATH, VERSION, first.bodyHash())).isTrue();
    }

    @Test
    void anyDifferenceInTheBodyIsADifferentRequest() {
        var base = of("POST", PATH, "{\"amount\":100,\"currency\":\"ZAR\"}");
        assertThat(of("POST", PATH, "{\"amount\":101,\"currency\":\"ZAR\"}")).isNotEqualTo(base);
        assertThat(of("POST", PATH, "{\"amount\":\"100\",\"currency\":\"ZAR\"}")).isNotEqualTo(base);
        assertThat(of("POST", PATH, "{\"amount\":100}")).isNotEqualTo(base);
        assertThat(of("POST", PATH, "{\"amount\":100,\"currency\":\"ZAR\",\"metadata\":null}")).isNotEqualTo(base);
        assertThat(of("POST", PATH, "{\"amount\":100,\"currency\":\"zar\"}")).isNotEqualTo(base);
        // Arrays keep their order: related ids in another order are another request.
        assertThat(of("POST", PATH, "{\"ids\":[\"a\",\"b\"]}")).isNotEqualTo(of("POST", PATH, "{\"ids\":[\"b\",\"a\"]}"));
    }

    @Test
    void anotherMethodOrPathIsADifferentRequest() {
        var base = of("POST", PATH, "{}");
        assertThat(of("PATCH", PATH, "{}")).isNotEqualTo(base);
        assertThat(of("POST", "/billing/customers", "{}")).isNotEqualTo(base);
        assertThat(base.sameAs("PATCH", PATH, VERSION, base.bodyHash())).isFalse();
        assertThat(base.sameAs("POST", "/collect/redemptions/", VERSION, base.bodyHash())).isFalse();
    }

    @Test
    void theSameRequestInAnotherApiVersionIsADifferentRequest() {
        var base = of("POST", PATH, "{\"amount\":100}");
        var older = RequestFingerprint.of("POST", PATH, "2026-03-13", json("{\"amount\":100}"));
        assertThat(older).isNotEqualTo(base);
        assertThat(base.sameAs("POST", PATH, "2026-03-13", base.bodyHash())).isFalse();
        assertThat(older.bodyHash()).isEqualTo(base.bodyHash());
    }

    @Test
    void theBodyIsKeptOnlyAsAHash() {
        var fingerprint = of("POST", PATH, "{\"source\":{\"pin\":\"4000123412341237\"}}");
        assertThat(fingerprint.bodyHash()).hasSize(32);
        assertThat(new String(fingerprint.bodyHash(), java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain("4000123412341237");
        assertThat(fingerprint.toString()).isEqualTo("POST " + PATH + " (" + VERSION + ")");
    }

    @Test
    void anAbsentBodyIsOneRequestAndNotAnEmptyObject() {
        assertThat(of("POST", PATH, null)).isEqualTo(RequestFingerprint.of("POST", PATH, VERSION, json("null")));
        assertThat(of("POST", PATH, null)).isNotEqualTo(of("POST", PATH, "{}"));
    }

    @Test
    void theHashIsOfTheBodyWithItsPropertiesInNameOrderSoKeysStoredByEarlierVersionsStillMatch() throws Exception {
        var fingerprint = of("POST", PATH, "{ \"b\": 1, \"a\": {\"d\": [2, {\"f\": null, \"e\": \"x\"}], \"c\": 1.50} }");
        byte[] canonical = "{\"a\":{\"c\":1.5,\"d\":[2,{\"e\":\"x\",\"f\":null}]},\"b\":1}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(fingerprint.bodyHash())
                .isEqualTo(java.security.MessageDigest.getInstance("SHA-256").digest(canonical));
    }
}
