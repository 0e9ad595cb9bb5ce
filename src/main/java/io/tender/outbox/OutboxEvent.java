package io.tender.outbox;

import io.tender.api.Timestamps;
import io.tender.auth.Mode;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;

/**
 * One event as the outbox holds it: {@code payload} is the whole CloudEvents 1.0 event in structured JSON form,
 * exactly as it was written.
 */
public record OutboxEvent(String id, long seq, String aggregateType, String aggregateId, String type,
                          String merchantId, Mode mode, Instant createdAt, String payload) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * The event as webhooks and {@code GET /events} show it (decisions §2): {@code {id, type, created_at, data}},
     * where {@code data} is the CloudEvent's data unchanged.
     */
    public ObjectNode envelope() {
        JsonNode cloudEvent = JSON.readTree(payload);
        ObjectNode envelope = JsonNodeFactory.instance.objectNode();
        envelope.put("id", id);
        envelope.put("type", type);
        envelope.put("created_at", Timestamps.format(createdAt));
        JsonNode data = cloudEvent.get("data");
        envelope.set("data", data == null ? JsonNodeFactory.instance.nullNode() : data);
        return envelope;
    }

    /** The envelope's bytes: what a webhook request carries and signs. */
    public byte[] envelopeBytes() {
        return JSON.writeValueAsBytes(envelope());
    }
}
