package io.tender.webhook;

import io.swagger.v3.oas.annotations.media.Schema;

import java.util.List;

/** What {@code POST /events/{id}/redeliver} queued: one delivery per endpoint. */
@Schema(name = "Redelivery")
public record RedeliveryView(@Schema(description = "The event id.", requiredMode = Schema.RequiredMode.REQUIRED) String id,
                      @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<DeliveryView> deliveries) {

    @Schema(name = "WebhookDelivery")
    public record DeliveryView(@Schema(pattern = "^whd_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String id,
                        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String webhookEndpointId,
                        @Schema(allowableValues = {"pending"}, requiredMode = Schema.RequiredMode.REQUIRED) String status,
                        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String nextAttemptAt) {
    }
}
