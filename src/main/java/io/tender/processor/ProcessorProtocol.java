package io.tender.processor;

import io.tender.provider.live.ProtocolJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.util.Map;

/**
 * The JSON of Tender's processor protocol (docs/processor-protocol.md): the calls as the processor receives them and
 * its answers. The HTTP adapter writes calls and reads answers; the simulator does the reverse; the sandbox ledger
 * stores answers in it. Reading is strict: anything not well-formed throws {@link ProtocolJson.Malformed}, which
 * callers treat as an unknown outcome.
 */
public final class ProcessorProtocol extends ProtocolJson<ProcessorOutcome> {

    public ProcessorProtocol(JsonMapper json) {
        super(json);
    }

    @Override
    public ObjectNode write(ProcessorOutcome outcome) {
        return switch (outcome) {
            case ProcessorOutcome.Approved a -> {
                ObjectNode node = approved(a.amount(), a.currency());
                if (a.funding() != null) {
                    node.put("funding", a.funding());
                }
                if (a.methodToken() != null) {
                    node.put("method_token", a.methodToken());
                }
                yield node.set("reference", json.valueToTree(a.reference() == null ? Map.of() : a.reference()));
            }
            case ProcessorOutcome.Declined d -> {
                ObjectNode node = answer("declined").put("error_code", d.errorCode()).put("message", d.message());
                yield d.declineCode() == null ? node : node.put("decline_code", d.declineCode());
            }
            case ProcessorOutcome.ActionRequired r -> {
                ObjectNode node = answer("action_required").put("action", r.action());
                yield r.redirectUrl() == null ? node : node.put("redirect_url", r.redirectUrl());
            }
            case ProcessorOutcome.Accepted a -> answer("pending")
                    .set("reference", json.valueToTree(a.reference() == null ? Map.of() : a.reference()));
            case ProcessorOutcome.Unknown u -> answer("unknown").put("message", u.message());
        };
    }

    public ProcessorOutcome read(byte[] bytes) {
        return read(object(bytes));
    }

    public ProcessorOutcome read(JsonNode node) {
        object(node);
        return switch (text(node, "result")) {
            case "approved" -> {
                Approval approval = approval(node, field -> text(node, field));
                String funding = node.path("funding").stringValue(null);
                if (funding != null && !funding.equals("CREDIT") && !funding.equals("DEBIT")) {
                    throw new Malformed("funding is not CREDIT or DEBIT");
                }
                String token = node.path("method_token").stringValue(null);
                if (token != null && (token.isEmpty() || token.length() > 255)) {
                    throw new Malformed("method_token is not 1 to 255 characters");
                }
                yield new ProcessorOutcome.Approved(approval.amount(), approval.currency(), funding,
                        approval.reference(), token);
            }
            case "declined" -> new ProcessorOutcome.Declined(text(node, "error_code"),
                    node.path("decline_code").stringValue(null), node.path("message").stringValue("Declined"));
            case "action_required" -> new ProcessorOutcome.ActionRequired(text(node, "action"),
                    node.path("redirect_url").stringValue(null));
            case "pending" -> new ProcessorOutcome.Accepted(reference(node));
            case "unknown" -> new ProcessorOutcome.Unknown(node.path("message").stringValue("unknown"));
            default -> throw new Malformed("unknown result");
        };
    }

    /** A call's body as the processor receives it. The card travels here and only here. */
    public ObjectNode authorize(PaymentProcessor.Authorize call) {
        ObjectNode body = json.createObjectNode();
        body.put("operation_key", call.operationKey()).put("amount", call.amount()).put("currency", call.currency())
                .put("capture", call.capture());
        if (call.returnUrl() != null) {
            body.put("return_url", call.returnUrl());
        }
        if (call.storeMethod()) {
            body.put("store_method", true);
        }
        ObjectNode method = body.putObject("method").put("type", call.method().type());
        switch (call.method()) {
            case PaymentMethodInput.Card c -> method.putObject("card").put("number", c.number())
                    .put("exp_month", c.expMonth()).put("exp_year", c.expYear()).put("security_code", c.securityCode());
            case PaymentMethodInput.Saved c -> method.putObject("card").put("token", c.token());
            case PaymentMethodInput.Bank b -> method.putObject("pay_by_bank").put("bank", b.bank());
            case PaymentMethodInput.Phone p -> method.putObject(p.type()).put("phone_number", p.phoneNumber());
        }
        return body;
    }

    /** Reads an authorize call (the simulator's side); null when it is not one. */
    public PaymentProcessor.Authorize readAuthorize(JsonNode body) {
        String key = body.path("operation_key").stringValue(null);
        String currency = body.path("currency").stringValue(null);
        JsonNode method = body.path("method");
        String type = method.path("type").stringValue("");
        PaymentMethodInput input = switch (type) {
            case "card" -> {
                JsonNode card = method.path("card");
                if (card.isObject() && card.has("token")) {
                    String token = card.path("token").stringValue("");
                    yield token.isEmpty() || card.has("number") ? null : new PaymentMethodInput.Saved(token);
                }
                yield card.isObject() ? new PaymentMethodInput.Card(card.path("number").stringValue(""),
                        card.path("exp_month").intValue(), card.path("exp_year").intValue(),
                        card.path("security_code").stringValue("")) : null;
            }
            case "pay_by_bank" -> new PaymentMethodInput.Bank(method.path("pay_by_bank").path("bank").stringValue(""));
            case "capitec_pay", "mobile_money" ->
                    new PaymentMethodInput.Phone(type, method.path(type).path("phone_number").stringValue(""));
            default -> null;
        };
        // store_method is sent only when true: absent means false. booleanValue() throws on a missing or
        // non-boolean node, so both flags are checked here and a bad one makes the call "not one".
        JsonNode capture = body.path("capture");
        JsonNode storeMethod = body.path("store_method");
        if (key == null || currency == null || input == null || !body.path("amount").isIntegralNumber()
                || !capture.isBoolean() || !(storeMethod.isMissingNode() || storeMethod.isBoolean())) {
            return null;
        }
        return new PaymentProcessor.Authorize(key, body.path("amount").longValue(), currency, input,
                capture.booleanValue(), body.path("return_url").stringValue(null), storeMethod.booleanValue(false));
    }

    /** The body of a call on an earlier authorization: capture, void, refund. */
    public ObjectNode follow(String operationKey, String authorizationKey, long amount, String currency) {
        return json.createObjectNode().put("operation_key", operationKey).put("authorization_key", authorizationKey)
                .put("amount", amount).put("currency", currency);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isString() || value.stringValue().isBlank()) {
            throw new Malformed("missing " + field);
        }
        return value.stringValue();
    }
}
