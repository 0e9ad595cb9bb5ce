package io.tender.idempotency;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.json.JsonMapper;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** What an Idempotency-Key is bound to: method, path and the SHA-256 of the body in canonical JSON form. */
public record RequestFingerprint(String method, String path, byte[] bodyHash) {

    private static final JsonMapper CANONICAL = JsonMapper.builder().build();

    public static RequestFingerprint of(String method, String path, JsonNode body) {
        byte[] canonical = body == null || body.isMissingNode() || body.isNull()
                ? new byte[0] : CANONICAL.writeValueAsBytes(sorted(body));
        try {
            return new RequestFingerprint(method, path, MessageDigest.getInstance("SHA-256").digest(canonical));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same JSON with every object's properties in name order, so that property order does not matter. */
    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>(node.propertyNames());
            Collections.sort(names);
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (String name : names) {
                copy.set(name, sorted(node.get(name)));
            }
            return copy;
        }
        if (node.isArray()) {
            var copy = JsonNodeFactory.instance.arrayNode();
            node.forEach(item -> copy.add(sorted(item)));
            return copy;
        }
        return node;
    }

    public boolean sameAs(String otherMethod, String otherPath, byte[] otherHash) {
        return method.equals(otherMethod) && path.equals(otherPath) && Arrays.equals(bodyHash, otherHash);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RequestFingerprint that && sameAs(that.method, that.path, that.bodyHash);
    }

    @Override
    public int hashCode() {
        return method.hashCode() * 31 + path.hashCode() * 17 + Arrays.hashCode(bodyHash);
    }

    @Override
    public String toString() {
        return method + " " + path;
    }
}
