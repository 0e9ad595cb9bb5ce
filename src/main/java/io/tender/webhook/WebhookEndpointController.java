package io.tender.webhook;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.EmptyRequest;
import io.tender.api.CursorList;
import io.tender.api.ProblemResponse;
import io.tender.api.ApiException;
import io.tender.api.Ids;
import io.tender.api.JsonInput;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.apiversion.RequestVersion;
import io.tender.auth.Caller;
import io.tender.idempotency.IdempotentRequests;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

@ProblemResponse(status = 404, description = "No such endpoint for this key")
@RestController
@Tag(name = "Webhook endpoints", description = "Endpoints that receive signed events (Standard Webhooks), their "
        + "delivery attempts, and redelivery.")
record WebhookEndpointController(WebhookService service, WebhookTargets targets, IdempotentRequests idempotent) {

    private static final Pattern ENDPOINT_ID = Ids.pattern("we_");
    private static final Pattern ATTEMPT_ID = Ids.pattern("wha_");
    private static final Pattern EVENT_ID = Ids.pattern("evt_");

    @PostMapping(value = "/webhook_endpoints", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create a webhook endpoint",
            description = "Returns the endpoint with its signing secret, which is shown this once. Its events come in "
                    + "the API version of this request (`api_version`; PATCH changes it). The URL must "
                    + "reach a public address in every mode (no loopback, private, link-local or multicast address, "
                    + "in any form); live-mode endpoints also need https. At most 16 endpoints per merchant and "
                    + "mode: the 17th is a 422.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = CreateEndpointRequest.class))))
    @ApiResponse(responseCode = "201", content = @Content(schema = @Schema(implementation = WebhookEndpointView.class)))
    @ProblemResponse(status = 422, description = "The merchant already has the most endpoints allowed in this mode")
    ResponseEntity<byte[]> create(Caller caller, @RequestBody(required = false) JsonNode body,
                                  HttpServletRequest request) {
        EndpointRequest endpoint = EndpointRequest.forCreate(body, caller.mode(), targets);
        return idempotent.execute(caller, request, body, () -> new IdempotentRequests.Result(201,
                service.create(caller, endpoint, RequestVersion.of(request))));
    }

    @GetMapping(value = "/webhook_endpoints", produces = MediaType.APPLICATION_JSON_VALUE)
    @CursorList(idPrefix = "we_")
    @Operation(summary = "List webhook endpoints", description = "Newest first, with cursor pagination.")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = EndpointList.class)))
    ResponseEntity<ListPage<WebhookEndpointView>> list(Caller caller, HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), ENDPOINT_ID, Set.of()).throwIfInvalid();
        return service.list(caller, query).toResponse();
    }

    @GetMapping(value = "/webhook_endpoints/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Retrieve a webhook endpoint", description = "The secret is not shown again.")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = WebhookEndpointView.class)))
    WebhookEndpointView get(Caller caller, @PathVariable String id) {
        return service.get(caller, id);
    }

    @PatchMapping(value = "/webhook_endpoints/{id}", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Update a webhook endpoint",
            description = "Changes only the fields given. `status: enabled` re-enables an endpoint that was disabled "
                    + "(by a PATCH or by a 410 answer); deliveries that were waiting resume.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = UpdateEndpointRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = WebhookEndpointView.class)))
    ResponseEntity<byte[]> update(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode body,
                                  HttpServletRequest request) {
        EndpointRequest changes = EndpointRequest.forUpdate(body, caller.mode(), targets);
        return idempotent.execute(caller, request, body,
                () -> new IdempotentRequests.Result(200, service.update(caller, id, changes)));
    }

    @DeleteMapping(value = "/webhook_endpoints/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Delete a webhook endpoint", description = "Deliveries still waiting for it are dropped.")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = WebhookEndpointView.Deleted.class)))
    WebhookEndpointView.Deleted delete(Caller caller, @PathVariable String id) {
        return service.delete(caller, id);
    }

    @PostMapping(value = "/webhook_endpoints/{id}/rotate_secret", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "rotateWebhookEndpointSecret", summary = "Rotate the signing secret",
            description = "Returns the endpoint with its new secret, shown this once. For 24 hours deliveries carry "
                    + "signatures under both the new and the previous secret.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = EmptyRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = WebhookEndpointView.class)))
    ResponseEntity<byte[]> rotateSecret(Caller caller, @PathVariable String id,
                                        @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        EndpointRequest.requireEmpty(body);
        return idempotent.execute(caller, request, body,
                () -> new IdempotentRequests.Result(200, service.rotateSecret(caller, id)));
    }

    @GetMapping(value = "/webhook_endpoints/{id}/deliveries", produces = MediaType.APPLICATION_JSON_VALUE)
    @CursorList(idPrefix = "wha_")
    @Operation(operationId = "listWebhookDeliveries", summary = "List delivery attempts", description = "Every attempt to deliver an event to this "
            + "endpoint, newest first, with cursor pagination.", parameters = {
            @Parameter(name = "event_id", in = ParameterIn.QUERY, schema = @Schema(type = "string", pattern = "^evt_[a-f0-9]{24}$")),
            @Parameter(name = "status", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"succeeded", "failed"}))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = AttemptList.class)))
    ResponseEntity<ListPage<DeliveryAttemptView>> deliveries(Caller caller, @PathVariable String id,
                                                             HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), ATTEMPT_ID, Set.of("event_id", "status"));
        String status = query.oneOf("status", Set.of("succeeded", "failed"));
        String eventId = query.single("event_id");
        query.throwIfInvalid();
        if (eventId != null && !EVENT_ID.matcher(eventId).matches()) {
            throw ApiException.badRequest("event_id", "is not an event id");
        }
        return service.attempts(caller, id, query, eventId, status).toResponse();
    }

    @PostMapping(value = "/events/{id}/redeliver", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "redeliverEvent", summary = "Redeliver an event",
            description = "Queues the event again, now and with a fresh retry schedule, for the given endpoint or "
                    + "else for every enabled endpoint that receives its type. Receivers see the same webhook-id.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(
                    content = @Content(schema = @Schema(implementation = RedeliverRequest.class))))
    @ApiResponse(responseCode = "202", content = @Content(schema = @Schema(implementation = RedeliveryView.class)))
    @ProblemResponse(status = 404, description = "No such event or endpoint for this key")
    @ProblemResponse(status = 422, description = "No enabled endpoint receives this event, or the endpoint is disabled")
    ResponseEntity<byte[]> redeliver(Caller caller, @PathVariable String id,
                                     @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        JsonInput in = JsonInput.body(body).allow(Set.of("webhook_endpoint"));
        String endpoint = in.string("webhook_endpoint", false);
        in.check(endpoint, e -> ENDPOINT_ID.matcher(e).matches(), "webhook_endpoint", "is not a webhook endpoint id");
        in.throwIfInvalid();
        return idempotent.execute(caller, request, body,
                () -> new IdempotentRequests.Result(202, service.redeliver(caller, id, endpoint)));
    }

    @Schema(name = "CreateWebhookEndpointRequest")
    record CreateEndpointRequest(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, maxLength = 2048, format = "uri", example = "https://example.com/webhooks/tender") String url,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "[\"*\"]",
                    description = "Event types to receive (see docs/events.md), or \"*\" for all.") List<String> enabledEvents,
            @Schema(maxLength = 500) String description) {
    }

    @Schema(name = "UpdateWebhookEndpointRequest")
    record UpdateEndpointRequest(@Schema(maxLength = 2048, format = "uri", example = "https://example.com/webhooks/tender") String url,
                                 @Schema(example = "[\"*\"]", description = "Event types to receive (see docs/events.md), or \"*\" for all.") List<String> enabledEvents,
                                 @Schema(maxLength = 500, description = "An empty string removes it.") String description,
                                 @Schema(allowableValues = {"enabled", "disabled"}) String status,
                                 @Schema(description = "The API version to render its events in from now on "
                                         + "(docs/api-versions.md).") String apiVersion) {
    }

    @Schema(name = "RedeliverRequest")
    record RedeliverRequest(@Schema(pattern = "^we_[a-f0-9]{24}$", description = "Only this endpoint.") String webhookEndpoint) {
    }

    @Schema(name = "WebhookEndpointList")
    record EndpointList(List<WebhookEndpointView> data, boolean hasMore, String nextCursor) {
    }

    @Schema(name = "WebhookDeliveryAttemptList")
    record AttemptList(List<DeliveryAttemptView> data, boolean hasMore, String nextCursor) {
    }
}
