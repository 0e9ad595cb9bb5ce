package io.tender.provider;

import io.tender.provider.live.ProtocolJson;
import io.tender.provider.live.ProtocolJson.Malformed;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.util.Map;

/**
 * The JSON of Tender's voucher provider protocol (docs/provider-protocol.md): how a provider's answer is written
 * and read. The HTTP adapter reads it, the provider simulator and the sandbox ledger write it. Reading is strict:
 * anything that is not a well-formed answer throws {@link ProtocolJson.Malformed}, which callers treat as an unknown outcome.
 */
public final class ProviderProtocol {

    private final JsonMapper json;
    private final ProtocolJson answers;

    public ProviderProtocol(JsonMapper json) {
        this.json = json;
        this.answers = new ProtocolJson(json);
    }

    public ObjectNode write(ProviderOutcome outcome) {
        ObjectNode node = json.createObjectNode();
        switch (outcome) {
            case ProviderOutcome.Approved a -> {
                node.put("result", "approved").put("amount", a.amount()).put("currency", a.currency());
                node.set("reference", json.valueToTree(a.reference()));
                if (a.changeVoucher() != null) {
                    node.set("change_voucher", json.valueToTree(a.changeVoucher()));
                }
            }
            case ProviderOutcome.Declined d -> node.put("result", "declined").put("error_code", d.errorCode())
                    .put("message", d.message());
            case ProviderOutcome.Unknown u -> node.put("result", "unknown").put("error_code", u.errorCode())
                    .put("message", u.message());
        }
        return node;
    }

    public byte[] bytes(ProviderOutcome outcome) {
        return json.writeValueAsBytes(write(outcome));
    }

    public ProviderOutcome read(byte[] bytes, RedemptionType type) {
        return read(answers.object(bytes), type);
    }

    public ProviderOutcome read(JsonNode node, RedemptionType type) {
        ProtocolJson.object(node);
        return switch (text(node, "result")) {
            case "approved" -> {
                long amount = ProtocolJson.approvedAmount(node);
                String currency = ProtocolJson.approvedCurrency(text(node, "currency"));
                Map<String, Object> referenceMap = answers.reference(node);
                ChangeVoucher change = null;
                JsonNode changeNode = node.get("change_voucher");
                if (changeNode != null && !changeNode.isNull()) {
                    try {
                        change = json.treeToValue(changeNode, ChangeVoucher.shapeOf(type));
                    } catch (RuntimeException e) {
                        throw new Malformed("change_voucher does not fit the type");
                    }
                    if (change.pin() == null || change.pin().isBlank()) {
                        throw new Malformed("change_voucher without a pin");
                    }
                }
                yield new ProviderOutcome.Approved(amount, currency, referenceMap, change);
            }
            case "declined" -> new ProviderOutcome.Declined(text(node, "error_code"), text(node, "message"));
            case "unknown" -> new ProviderOutcome.Unknown(text(node, "error_code"), text(node, "message"));
            default -> throw new Malformed("unknown result");
        };
    }

    public VoucherProvider.Lookup readLookup(byte[] bytes) {
        JsonNode node = answers.object(bytes);
        return switch (text(node, "result")) {
            case "balance" -> {
                JsonNode balance = node.get("balance");
                if (balance == null || !balance.isIntegralNumber()) {
                    throw new Malformed("balance is not an integer");
                }
                Map<String, Object> metadata = node.has("metadata") && node.get("metadata").isObject()
                        ? json.convertValue(node.get("metadata"), new TypeReference<>() {
                        }) : Map.of();
                yield new VoucherProvider.Lookup.Balance(balance.longValue(), text(node, "currency"), metadata);
            }
            case "declined" -> new VoucherProvider.Lookup.Refused(text(node, "error_code"), text(node, "message"));
            default -> throw new Malformed("unknown result");
        };
    }

    public ObjectNode write(VoucherProvider.Lookup lookup) {
        ObjectNode node = json.createObjectNode();
        switch (lookup) {
            case VoucherProvider.Lookup.Balance b -> {
                node.put("result", "balance").put("balance", b.balance()).put("currency", b.currency());
                node.set("metadata", json.valueToTree(b.metadata()));
            }
            case VoucherProvider.Lookup.Refused r -> node.put("result", "declined").put("error_code", r.errorCode())
                    .put("message", r.message());
        }
        return node;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isString() || value.stringValue().isBlank() || value.stringValue().length() > 500) {
            throw new Malformed(field + " is missing or not a short string");
        }
        return value.stringValue();
    }
}
