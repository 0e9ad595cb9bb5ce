package io.tender.apiversion;

import tools.jackson.databind.JsonNode;

import java.util.Arrays;
import java.util.Optional;

/**
 * The kinds of object whose shape a version change touches, told apart as the API tells them: by the prefix of their
 * {@code id}. An answer's objects are its root, the items of a list's {@code data}, and an event's {@code data}.
 */
enum ApiObject {
    PAYMENT("pay_"), PAYMENT_SESSION("ps_"), PAYMENT_REQUEST("pr_"), PAYMENT_PAGE("pp_"), PAGE_TRANSACTION("pt_"),
    EVENT("evt_");

    private final String prefix;

    ApiObject(String prefix) {
        this.prefix = prefix;
    }

    static Optional<ApiObject> of(JsonNode object) {
        JsonNode id = object == null ? null : object.get("id");
        if (id == null || !id.isString()) {
            return Optional.empty();
        }
        String text = id.stringValue();
        return Arrays.stream(values()).filter(kind -> text.startsWith(kind.prefix)).findFirst();
    }

    boolean is(JsonNode object) {
        return of(object).orElse(null) == this;
    }
}
