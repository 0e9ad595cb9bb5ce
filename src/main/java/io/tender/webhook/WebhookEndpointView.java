package io.tender.webhook;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;

import java.util.List;

/** A webhook endpoint as the API shows it. {@code secret} appears only when it was just created or rotated. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "WebhookEndpoint")
public record WebhookEndpointView(
        @Schema(pattern = "^we_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(example = "https://example.com/webhooks/tender", requiredMode = Schema.RequiredMode.REQUIRED) String url,
        String description,
        @Schema(description = "Event types this endpoint receives; \"*\" for all.", example = "[\"redemption.confirmed\", \"obligation.amount_applied\"]",
                requiredMode = Schema.RequiredMode.REQUIRED) List<String> enabledEvents,
        @Schema(allowableValues = {"enabled", "disabled"}, requiredMode = Schema.RequiredMode.REQUIRED) String status,
        @Schema(allowableValues = {"disabled_by_merchant", "endpoint_gone"},
                description = "Why the endpoint is disabled: by a PATCH, or because it answered 410 Gone.") String disabledReason,
        @Schema(example = "2026-06-01", requiredMode = Schema.RequiredMode.REQUIRED,
                description = "The API version its events' payloads are rendered in (docs/api-versions.md): the version "
                        + "of the request that created it, changed by PATCH.") String apiVersion,
        @Schema(description = "The signing secret (whsec_ + base64). Returned only by create and rotate_secret: store it then.",
                example = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") String secret,
        @Schema(format = "date-time", description = "Until when the secret before the last rotation still signs deliveries.")
        String previousSecretExpiresAt,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt) {

    static WebhookEndpointView of(WebhookEndpoint e, boolean withSecret) {
        boolean overlapping = e.previousSecretExpiresAt() != null
                && e.previousSecretExpiresAt().isAfter(java.time.Instant.now());
        return new WebhookEndpointView(e.id(), e.url(), e.description(), e.enabledEvents(), e.status().wire(),
                e.disabledReason(), e.apiVersion().wire(), withSecret ? e.secret() : null,
                overlapping ? Timestamps.format(e.previousSecretExpiresAt()) : null,
                Timestamps.format(e.createdAt()), Timestamps.format(e.updatedAt()));
    }

    @Schema(name = "DeletedWebhookEndpoint")
    record Deleted(@Schema(requiredMode = Schema.RequiredMode.REQUIRED) String id,
                   @Schema(requiredMode = Schema.RequiredMode.REQUIRED) boolean deleted) {
    }
}
