package io.tender.apiversion;

import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.function.Consumer;

/**
 * Runs the {@link VersionChange}s: reads a request of an older version up into the newest shape, and renders an
 * answer or an event's webhook body from the newest shape down into an older version. Where no change applies (the
 * newest version; and redemptions, billing and every other path no change touches, in any version) it does nothing at
 * all: the same tree or the same bytes come back, never parsed or written again.
 */
@Component
public class VersionShapes {

    /** Writes event bodies as the outbox does ({@code OutboxEvent}) and {@code tender listen} does: a default mapper. */
    private static final JsonMapper EVENTS = JsonMapper.builder().build();

    private final PaymentProgress payments;

    /** {@code payments}: the payments module's, in the service; {@link PaymentProgress#NONE} where there are none. */
    public VersionShapes(PaymentProgress payments) {
        this.payments = payments;
    }

    /** The body read up from {@code version} to the newest, in place; the same node when no change applies. */
    public JsonNode readUp(ApiVersion version, Route route, JsonNode body) {
        if (!(body instanceof ObjectNode object)) {
            return body;
        }
        for (VersionChange change : ApiVersions.readingRequests(version, route.pattern())) {
            change.readUp(route, object);
        }
        return body;
    }

    /** Whether an answer of {@code path} in {@code version} differs from the newest shape at all. */
    public boolean rendersAnswers(ApiVersion version, String path) {
        return !ApiVersions.renderingAnswers(version, path).isEmpty();
    }

    /** Renders an answer of {@code path} down to {@code version}, in place; {@code problem}: a problem+json answer. */
    public void renderAnswer(ApiVersion version, String path, JsonNode answer, boolean problem) {
        if (!(answer instanceof ObjectNode root)) {
            return;
        }
        for (VersionChange change : ApiVersions.renderingAnswers(version, path)) {
            if (problem) {
                change.renderProblemDown(root);
            } else {
                eachObject(root, change, object -> change.renderDown(object, payments));
            }
        }
    }

    /**
     * A webhook body ({@code {id, type, created_at, data}}) of an event of {@code type}, in {@code version}: the very
     * same bytes when no change applies to that type, otherwise the rendered tree written as the outbox writes it.
     */
    public byte[] renderEvent(ApiVersion version, String type, byte[] envelope) {
        List<VersionChange> changes = ApiVersions.renderingEvents(version, type);
        if (changes.isEmpty()) {
            return envelope;
        }
        JsonNode tree = EVENTS.readTree(envelope);
        if (!(tree.get("data") instanceof ObjectNode data)) {
            return envelope;
        }
        for (VersionChange change : changes) {
            eachPart(data, object -> change.renderDown(object, payments));
        }
        return EVENTS.writeValueAsBytes(tree);
    }

    /**
     * The objects of an answer that a change renders: the answer, or each item of a list's {@code data}; an event's
     * payload when the change touches the event's type; and the payment a page transaction carries.
     */
    static void eachObject(ObjectNode answer, VersionChange change, Consumer<ObjectNode> render) {
        if (!answer.has("id") && answer.get("data") instanceof ArrayNode items) {
            for (JsonNode item : items) {
                if (item instanceof ObjectNode object) {
                    one(object, change, render);
                }
            }
        } else {
            one(answer, change, render);
        }
    }

    private static void one(ObjectNode object, VersionChange change, Consumer<ObjectNode> render) {
        if (ApiObject.EVENT.is(object)) {
            if (object.get("type") != null && object.get("type").isString()
                    && ApiVersions.touchesEvent(change, object.get("type").stringValue())
                    && object.get("data") instanceof ObjectNode data) {
                eachPart(data, render);
            }
            return;
        }
        eachPart(object, render);
    }

    /** An object, and the payment inside it where the API nests one (a page transaction's). */
    private static void eachPart(ObjectNode object, Consumer<ObjectNode> render) {
        render.accept(object);
        if (ApiObject.PAGE_TRANSACTION.is(object) && object.get("payment") instanceof ObjectNode payment) {
            render.accept(payment);
        }
    }
}
