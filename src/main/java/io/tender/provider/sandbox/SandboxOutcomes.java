package io.tender.provider.sandbox;

import io.tender.provider.ChangeVoucher;
import io.tender.provider.ProviderOutcome;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.util.Map;

/** Stores a sandbox answer so that the same call asked again, or its status asked for, gets the same answer. */
final class SandboxOutcomes {

    private final JsonMapper json;

    SandboxOutcomes(JsonMapper json) {
        this.json = json;
    }

    byte[] write(ProviderOutcome outcome) {
        ObjectNode node = json.createObjectNode();
        switch (outcome) {
            case ProviderOutcome.Approved a -> {
                node.put("result", "approved").put("amount", a.amount()).put("currency", a.currency());
                node.set("reference", json.valueToTree(a.reference()));
                if (a.changeVoucher() != null) {
                    node.put("change_kind", a.changeVoucher() instanceof ChangeVoucher.WithAmount ? "amount" : "reference");
                    node.set("change_voucher", json.valueToTree(a.changeVoucher()));
                }
            }
            case ProviderOutcome.Declined d -> node.put("result", "declined").put("error_code", d.errorCode())
                    .put("message", d.message());
            case ProviderOutcome.Unknown u -> node.put("result", "unknown").put("error_code", u.errorCode())
                    .put("message", u.message());
        }
        return json.writeValueAsBytes(node);
    }

    ProviderOutcome read(byte[] bytes) {
        JsonNode node = json.readTree(bytes);
        return switch (node.get("result").stringValue()) {
            case "approved" -> {
                ChangeVoucher change = null;
                if (node.has("change_voucher")) {
                    Class<? extends ChangeVoucher> shape = "amount".equals(node.get("change_kind").stringValue())
                            ? ChangeVoucher.WithAmount.class : ChangeVoucher.WithReference.class;
                    change = json.treeToValue(node.get("change_voucher"), shape);
                }
                Map<String, Object> reference = json.convertValue(node.get("reference"), new TypeReference<>() {
                });
                yield new ProviderOutcome.Approved(node.get("amount").longValue(), node.get("currency").stringValue(),
                        reference, change);
            }
            case "declined" -> new ProviderOutcome.Declined(node.get("error_code").stringValue(),
                    node.get("message").stringValue());
            default -> new ProviderOutcome.Unknown(node.get("error_code").stringValue(), node.get("message").stringValue());
        };
    }
}
