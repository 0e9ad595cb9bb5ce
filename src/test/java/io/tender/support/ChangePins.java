package io.tender.support;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Decisions §1 "Sensitive values": {@code change_voucher.pin} is shown in full only by the call that made it (and
 * its replay); every later read masks it like {@code source}, to its last four characters.
 */
public final class ChangePins {

    private ChangePins() {
    }

    /** The redemption a create or confirm answered, as a later GET or list shows it. */
    public static JsonNode maskedLater(JsonNode answered) {
        JsonNode copy = answered.deepCopy();
        if (copy.get("change_voucher") instanceof ObjectNode change && change.get("pin") != null) {
            String pin = change.get("pin").stringValue();
            int visible = Math.min(4, pin.length() / 2);
            change.put("pin", "*".repeat(pin.length() - visible) + pin.substring(pin.length() - visible));
        }
        return copy;
    }
}
