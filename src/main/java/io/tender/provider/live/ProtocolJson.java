package io.tender.provider.live;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What the voucher provider protocol (docs/provider-protocol.md) and the payment processor protocol
 * (docs/processor-protocol.md) do alike with the outcomes {@code O} they answer: an answer is a JSON object, written
 * with the service's mapper, and an approval carries a whole non-negative amount, an ISO currency and an optional
 * reference object. Reading is strict: anything else throws {@link Malformed}, which callers treat as an unknown
 * outcome.
 */
public abstract class ProtocolJson<O> {

    /** An answer that does not follow the protocol. */
    public static final class Malformed extends RuntimeException {
        public Malformed(String reason) {
            super(reason, null, false, false);
        }
    }

    /** What an approval carries in both protocols. */
    public record Approval(long amount, String currency, Map<String, Object> reference) {
    }

    protected final JsonMapper json;

    protected ProtocolJson(JsonMapper json) {
        this.json = json;
    }

    /** The outcome as the answer that carries it. */
    public abstract ObjectNode write(O outcome);

    public byte[] bytes(O outcome) {
        return json.writeValueAsBytes(write(outcome));
    }

    /** An answer: an object whose {@code result} names its kind. */
    protected ObjectNode answer(String result) {
        return json.createObjectNode().put("result", result);
    }

    /** An approval's answer, as far as both protocols write it alike: its amount and currency. */
    protected ObjectNode approved(long amount, String currency) {
        return answer("approved").put("amount", amount).put("currency", currency);
    }

    /** The answer's JSON object. */
    protected JsonNode object(byte[] bytes) {
        JsonNode node;
        try {
            node = json.readTree(bytes);
        } catch (RuntimeException e) {
            throw new Malformed("not JSON");
        }
        return object(node);
    }

    protected static JsonNode object(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new Malformed("not a JSON object");
        }
        return node;
    }

    /**
     * An approval's amount (a whole number, not negative), currency (three upper-case letters, read from the field as
     * {@code text} reads the protocol's strings) and reference, checked in that order: a bad answer is named by its
     * first wrong field.
     */
    protected Approval approval(JsonNode node, UnaryOperator<String> text) {
        return new Approval(approvedAmount(node), approvedCurrency(text.apply("currency")), reference(node));
    }

    private static long approvedAmount(JsonNode node) {
        JsonNode amount = node.get("amount");
        if (amount == null || !amount.isIntegralNumber() || amount.longValue() < 0) {
            throw new Malformed("approved without a valid amount");
        }
        return amount.longValue();
    }

    private static String approvedCurrency(String currency) {
        if (!currency.matches("^[A-Z]{3}$")) {
            throw new Malformed("approved without a valid currency");
        }
        return currency;
    }

    /** An answer's reference (an approval's, a pending refund's): an object, or empty when absent or null. */
    protected Map<String, Object> reference(JsonNode node) {
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
