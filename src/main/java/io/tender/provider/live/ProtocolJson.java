package io.tender.provider.live;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.util.Map;

/**
 * What the voucher provider protocol (docs/provider-protocol.md) and the payment processor protocol
 * (docs/processor-protocol.md) read alike: an answer is a JSON object, and an approval carries a whole non-negative
 * amount, an ISO currency and an optional reference object. Reading is strict: anything else throws
 * {@link Malformed}, which callers treat as an unknown outcome.
 */
public final class ProtocolJson {

    /** An answer that does not follow the protocol. */
    public static final class Malformed extends RuntimeException {
        public Malformed(String reason) {
            super(reason, null, false, false);
        }
    }

    private final JsonMapper json;

    public ProtocolJson(JsonMapper json) {
        this.json = json;
    }

    /** The answer's JSON object. */
    public JsonNode object(byte[] bytes) {
        JsonNode node;
        try {
            node = json.readTree(bytes);
        } catch (RuntimeException e) {
            throw new Malformed("not JSON");
        }
        return object(node);
    }

    public static JsonNode object(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new Malformed("not a JSON object");
        }
        return node;
    }

    /** An approval's amount: a whole number, not negative. */
    public static long approvedAmount(JsonNode node) {
        JsonNode amount = node.get("amount");
        if (amount == null || !amount.isIntegralNumber() || amount.longValue() < 0) {
            throw new Malformed("approved without a valid amount");
        }
        return amount.longValue();
    }

    /** An approval's currency, given as {@code text}: three upper-case letters. */
    public static String approvedCurrency(String currency) {
        if (!currency.matches("^[A-Z]{3}$")) {
            throw new Malformed("approved without a valid currency");
        }
        return currency;
    }

    /** An approval's reference: an object, or empty when absent or null. */
    public Map<String, Object> reference(JsonNode node) {
        JsonNode reference = node.get("reference");
        if (reference == null || reference.isNull()) {
            return Map.of();
        }
        if (!reference.isObject()) {
            throw new Malformed("reference is not an object");
        }
        return json.convertValue(reference, new TypeReference<>() {
        });
    }
}
