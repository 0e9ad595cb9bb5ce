package io.tender.idempotency;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * What an Idempotency-Key is bound to: method, path, the API version the request was read and answered in
 * (decisions §15), and the SHA-256 of the body in canonical JSON form.
 */
public record RequestFingerprint(String method, String path, String apiVersion, byte[] bodyHash) {

    /** Writes every object's properties in name order, so that property order does not matter. */
    private static final JsonMapper CANONICAL = JsonMapper.builder()
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED).build();

    public static RequestFingerprint of(String method, String path, String apiVersion, JsonNode body) {
        byte[] canonical = body == null || body.isMissingNode() || body.isNull()
                ? new byte[0] : CANONICAL.writeValueAsBytes(body);
        try {
            return new RequestFingerprint(method, path, apiVersion,
                    MessageDigest.getInstance("SHA-256").digest(canonical));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public boolean sameAs(String otherMethod, String otherPath, String otherVersion, byte[] otherHash) {
        return method.equals(otherMethod) && path.equals(otherPath) && apiVersion.equals(otherVersion)
                && Arrays.equals(bodyHash, otherHash);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RequestFingerprint that && sameAs(that.method, that.path, that.apiVersion, that.bodyHash);
    }

    @Override
    public int hashCode() {
        return method.hashCode() * 31 + path.hashCode() * 17 + apiVersion.hashCode() * 7 + Arrays.hashCode(bodyHash);
    }

    @Override
    public String toString() {
        return method + " " + path + " (" + apiVersion + ")";
    }
}
