package io.tender.webhook;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;

/** One delivery attempt of an event to an endpoint, as {@code GET /webhook_endpoints/{id}/deliveries} lists it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "WebhookDeliveryAttempt")
record DeliveryAttemptView(
        @Schema(pattern = "^wha_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(description = "The delivery (one per endpoint and event) this attempt belongs to.", pattern = "^whd_[a-f0-9]{24}$",
                requiredMode = Schema.RequiredMode.REQUIRED) String deliveryId,
        @Schema(description = "The event, also the webhook-id header.", requiredMode = Schema.RequiredMode.REQUIRED) String eventId,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String eventType,
        @Schema(description = "1 for the first attempt of this delivery, counting redeliveries.", requiredMode = Schema.RequiredMode.REQUIRED) int attempt,
        @Schema(allowableValues = {"succeeded", "failed"}, requiredMode = Schema.RequiredMode.REQUIRED) String status,
        @Schema(description = "The receiver's HTTP status, when it answered.") Integer responseStatus,
        @Schema(allowableValues = {"timeout", "connect_timeout", "connection_failed", "tls_error", "network_error",
                "address_not_allowed", "interrupted", "error"}, description = "Why no answer arrived.") String error,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) int durationMs,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt) {

    static DeliveryAttemptView of(WebhookDeliveries.Attempt a) {
        return new DeliveryAttemptView(a.id(), a.deliveryId(), a.eventId(), a.eventType(), a.attempt(), a.outcome(),
                a.responseStatus(), a.error(), a.durationMs(), Timestamps.format(a.createdAt()));
    }
}
