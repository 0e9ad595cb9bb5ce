package io.tender.webhook;

import io.tender.api.JsonInput;
import io.tender.apiversion.ApiVersion;
import io.tender.apiversion.ApiVersions;
import io.tender.auth.Mode;
import io.tender.event.EventTypes;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The body of {@code POST /webhook_endpoints} (everything but {@code description} required) or of a PATCH
 * (everything optional, {@code status} and {@code api_version} allowed: a new endpoint takes the version of the request
 * that creates it). Every problem is reported at once. A JSON null is the same as an absent field for
 * {@code description} (on a PATCH it removes it, like ""); for {@code url}, {@code enabled_events}, {@code status} and
 * {@code api_version}, which an endpoint always has, it is a 400 naming the field.
 */
record EndpointRequest(String url, List<String> enabledEvents, String description, WebhookEndpoint.Status status,
                       ApiVersion apiVersion) {

    static final int MAX_EVENTS = 100;
    static final int MAX_DESCRIPTION = 500;

    static EndpointRequest forCreate(JsonNode body, Mode mode, WebhookTargets targets) {
        return parse(body, mode, targets, true);
    }

    static EndpointRequest forUpdate(JsonNode body, Mode mode, WebhookTargets targets) {
        return parse(body, mode, targets, false);
    }

    /** A create of these values, held to the API's checks as {@link #forCreate} holds a body of them. */
    static EndpointRequest of(String url, List<String> enabledEvents, String description, Mode mode,
                              WebhookTargets targets) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("url", url);
        var events = body.putArray("enabled_events");
        enabledEvents.forEach(events::add);
        if (description != null) {
            body.put("description", description);
        }
        return forCreate(body, mode, targets);
    }

    /** A change of the status alone, as {@code PATCH {"status": …}}: everything else stays. */
    static EndpointRequest ofStatus(boolean enabled, Mode mode, WebhookTargets targets) {
        return forUpdate(JsonNodeFactory.instance.objectNode().put("status", enabled ? "enabled" : "disabled"), mode,
                targets);
    }

    private static EndpointRequest parse(JsonNode body, Mode mode, WebhookTargets targets, boolean create) {
        JsonInput in = JsonInput.body(body);
        in.allow(create ? Set.of("url", "enabled_events", "description")
                : Set.of("url", "enabled_events", "description", "status", "api_version"));
        for (String name : create ? List.of("url", "enabled_events")
                : List.of("url", "enabled_events", "status", "api_version")) {
            if (isNull(body, name)) {
                in.reject(name, create ? "is required" : "may not be null");
            }
        }
        String url = in.line("url", create && !isNull(body, "url"), 1, WebhookTargets.MAX_URL_LENGTH);
        if (url != null) {
            targets.check(url, mode).ifPresent(refusal -> in.reject("url", refusal.reason()));
        }
        List<String> events = in.strings("enabled_events", MAX_EVENTS, 100);
        if (create && !in.has("enabled_events")) {
            in.reject("enabled_events", "is required");
        }
        if (events != null) {
            if (body.get("enabled_events").isEmpty()) { // not when every item was rejected already
                in.reject("enabled_events", "must name at least one event type, or \"*\" for all");
            }
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < events.size(); i++) {
                String type = events.get(i);
                if (!type.equals(EventTypes.WILDCARD) && !EventTypes.known(type)) {
                    in.reject("enabled_events[" + i + "]", "is not an event type; see docs/events.md, or use \"*\"");
                } else if (!seen.add(type)) {
                    in.reject("enabled_events[" + i + "]", "is listed twice");
                }
            }
        }
        String description = in.line("description", false, 0, MAX_DESCRIPTION);
        if (!create && isNull(body, "description")) {
            description = ""; // removes it, as "" does
        }
        String statusText = in.string("status", false);
        WebhookEndpoint.Status status = null;
        if (statusText != null) {
            if (statusText.equals("enabled") || statusText.equals("disabled")) {
                status = WebhookEndpoint.Status.fromWire(statusText);
            } else {
                in.reject("status", "must be enabled or disabled");
            }
        }
        ApiVersion version = ApiVersions.read(in, "api_version", false);
        in.throwIfInvalid();
        return new EndpointRequest(url, events, description, status, version);
    }

    private static boolean isNull(JsonNode body, String name) {
        return body != null && body.isObject() && body.has(name) && body.get(name).isNull();
    }

    static void requireEmpty(JsonNode body) {
        JsonInput in = JsonInput.body(body);
        in.allow(Set.of());
        in.throwIfInvalid();
    }

}
