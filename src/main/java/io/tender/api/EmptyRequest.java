package io.tender.api;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of an action that takes no input (void a bill, reverse a redemption, rotate a webhook secret): none, or
 * {@code {}}; any property is refused with 400. Named in {@code @Operation(requestBody = ...)} as the mark of such an
 * action, instead of the schema of Jackson's {@code JsonNode} the handler reads it with: {@link DocumentShape} then
 * leaves the request body out of the document (decisions §14), so generated clients send none.
 */
@Schema(name = "EmptyRequest", description = "No properties: send no body, or `{}`",
        additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
public record EmptyRequest() {
}

