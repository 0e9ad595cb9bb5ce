package io.tender.event;

import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.outbox.OutboxEvent;
import io.tender.api.Timestamps;
import tools.jackson.databind.JsonNode;

/**
 * An event as {@code GET /events} shows it: the same {@code {id, type, created_at, data}} that a webhook delivery of
 * it carries (decisions §2).
 */
@Schema(name = "Event")
public record EventView(
        @Schema(pattern = "^evt_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(example = "redemption.confirmed", requiredMode = Schema.RequiredMode.REQUIRED) String type,
        @Schema(format = "date-time", example = "2026-05-20T08:25:01.014Z", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(description = "The object the event is about, as the API shows it (secrets masked).",
                implementation = java.util.Map.class, requiredMode = Schema.RequiredMode.REQUIRED) JsonNode data) {

    static EventView of(OutboxEvent event) {
        JsonNode envelope = event.envelope();
        return new EventView(event.id(), event.type(), Timestamps.format(event.createdAt()), envelope.get("data"));
    }
}
