package io.tender.provider;

import io.tender.provider.live.ProtocolJson;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.util.Map;

/**
 * The JSON of Tender's voucher provider protocol (docs/provider-protocol.md): how a provider's answer is read (by
 * the HTTP adapter) and written (by the provider simulator and the sandbox ledger). Reading is strict:
 * anything that is not a well-formed answer throws {@link ProtocolJson.Malformed}, which callers treat as an unknown outcome.
 */
public final class ProviderProtocol extends ProtocolJson<ProviderOutcome> {

    public ProviderProtocol(JsonMapper json) {
        super(json);
    }

    public ProviderOutcome read(byte[] bytes, RedemptionType type) {
        return read(object(bytes), type);
    }

    public ProviderOutcome read(JsonNode node, RedemptionType type) {
        object(node);
        return switch (text(node, "result")) {
            case "approved" -> {
                Approval approval = approval(node, field -> text(node, field));
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
                yield new ProviderOutcome.Approved(approval.amount(), approval.currency(), approval.reference(), change);
            }
            case "declined" -> new ProviderOutcome.Declined(text(node, "error_code"), text(node, "message"));
            case "unknown" -> new ProviderOutcome.Unknown(text(node, "error_code"), text(node, "message"));
            default -> throw new Malformed("unknown result");
        };
    }

    @Override
    public ObjectNode write(ProviderOutcome outcome) {
        return switch (outcome) {
            case ProviderOutcome.Approved a -> {
                ObjectNode node = approved(a.amount(), a.currency()).set("reference", json.valueToTree(a.reference()));
                if (a.changeVoucher() != null) {
                    node.set("change_voucher", json.valueToTree(a.changeVoucher()));
                }
                yield node;
            }
            case ProviderOutcome.Declined d -> answer("declined").put("error_code", d.errorCode())
                    .put("message", d.message());
            case ProviderOutcome.Unknown u -> answer("unknown").put("error_code", u.errorCode())
                    .put("message", u.message());
        };
    }

    public VoucherProvider.Lookup readLookup(byte[] bytes) {
        JsonNode node = object(bytes);
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
        return switch (lookup) {
            case VoucherProvider.Lookup.Balance b -> answer("balance").put("balance", b.balance())
                    .put("currency", b.currency()).set("metadata", json.valueToTree(b.metadata()));
            case VoucherProvider.Lookup.Refused r -> answer("declined").put("error_code", r.errorCode())
                    .put("message", r.message());
        };
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isString() || value.stringValue().isBlank() || value.stringValue().length() > 500) {
            throw new Malformed(field + " is missing or not a short string");
        }
        return value.stringValue();
    }
}
