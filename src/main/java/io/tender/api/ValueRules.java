package io.tender.api;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;

import java.math.BigDecimal;
import java.util.Map;

import static io.tender.api.OpenApiSchemas.isType;
import static io.tender.api.OpenApiSchemas.refName;

/**
 * Rules on single values that the service enforces everywhere, declared where the annotations of each request do
 * not say them (issue 36: a schema-driven tester sent values the document allowed and the service refused). Rules
 * between fields stay in the descriptions.
 */
final class ValueRules {

    /** {@link IfMatch#version}'s forms: {@code 2}, {@code "2"}, {@code W/"2"}. */
    static final String IF_MATCH_PATTERN = "^(W/)?\"?[0-9]{1,9}\"?$";

    private ValueRules() {
    }

    @SuppressWarnings("rawtypes")
    static void declare(OpenAPI openApi, Map<String, Schema> components) {
        components.values().forEach(ValueRules::properties);
        notZero(components.get("MandateOptions"), "day_of_month");
        notZero(components.get("NthDayOfMonth"), "n");
        if (openApi.getPaths() == null) {
            return;
        }
        openApi.getPaths().forEach((path, item) -> item.readOperations().forEach(operation -> {
            if (operation.getParameters() == null) {
                return;
            }
            for (Parameter parameter : operation.getParameters()) {
                Schema<?> schema = parameter.getSchema();
                if (schema == null || schema.getPattern() != null) {
                    continue;
                }
                // A parameter's schema may be one object that springdoc shares between operations: replace it.
                if ("header".equals(parameter.getIn()) && "If-Match".equalsIgnoreCase(parameter.getName())) {
                    parameter.setSchema(OpenApiSchemas.typed("string").pattern(IF_MATCH_PATTERN));
                    parameter.setDescription(parameter.getDescription() == null
                            ? "The version the client last saw, e.g. `2` (or `\"2\"`, `W/\"2\"`, as an ETag gives it); "
                                    + "a different one is 409 conflict" : parameter.getDescription());
                } else if ("path".equals(parameter.getIn()) && "id".equals(parameter.getName())) {
                    parameter.setSchema(OpenApiSchemas.typed("string").pattern(idPattern(openApi, components, path, operation)));
                }
            }
        }));
    }

    /** Currencies and countries are upper-case ISO codes; payment method lists name 1 to 4 methods; lists are sets. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void properties(Schema<?> schema) {
        Map<String, Schema> properties = schema.getProperties();
        if (properties == null) {
            return;
        }
        properties.forEach((name, property) -> {
            if (property.get$ref() != null) {
                return;
            }
            if (name.equals("currency") && isType(property, "string") && property.getPattern() == null) {
                property.setPattern("^[A-Z]{3}$");
            }
            if (name.equals("country") && isType(property, "string") && property.getPattern() == null) {
                property.setPattern("^[A-Z]{2}$");
            }
            if (name.equals("visible_payment_methods") && isType(property, "array")) {
                property.setMinItems(1);
                property.setMaxItems(4);
                property.setDescription("One to four payment methods; one named twice counts once.");
            }
            // Refused when an item repeats ("must be distinct").
            if ((name.equals("presets") || name.equals("options")) && isType(property, "array")) {
                property.setUniqueItems(true);
            }
        });
    }

    /** A day that counts from the start (1, 2, ...) or from the end (-1): 0 is neither, and is refused. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void notZero(Schema<?> schema, String property) {
        if (schema == null || schema.getProperties() == null || schema.getProperties().get(property) == null) {
            return;
        }
        Schema<?> value = schema.getProperties().get(property);
        Schema zero = OpenApiSchemas.typed("integer");
        zero.setConst(BigDecimal.ZERO.intValue());
        value.setNot(zero);
    }

    /**
     * A path's {@code {id}} has the pattern of the ids of the object the path names: the object its {@code GET}
     * answers (so {@code /collect/payments/{id}/refunds} takes a payment's id), else what the operation answers.
     */
    @SuppressWarnings("rawtypes")
    private static String idPattern(OpenAPI openApi, Map<String, Schema> components, String path, Operation operation) {
        String resource = path.substring(0, path.indexOf("{id}") + "{id}".length());
        PathItem item = openApi.getPaths().get(resource);
        String pattern = item == null || item.getGet() == null ? null : idPatternOf(item.getGet(), components);
        return pattern != null ? pattern : idPatternOf(operation, components);
    }

    @SuppressWarnings("rawtypes")
    private static String idPatternOf(Operation operation, Map<String, Schema> components) {
        if (operation.getResponses() == null) {
            return null;
        }
        for (Map.Entry<String, ApiResponse> response : operation.getResponses().entrySet()) {
            if (!response.getKey().startsWith("2") || response.getValue().getContent() == null) {
                continue;
            }
            for (MediaType media : response.getValue().getContent().values()) {
                Schema<?> schema = components.get(refName(media.getSchema()));
                if (schema != null && schema.getOneOf() != null && !schema.getOneOf().isEmpty()) {
                    schema = components.get(refName(schema.getOneOf().getFirst()));
                }
                Schema<?> id = schema == null || schema.getProperties() == null ? null : schema.getProperties().get("id");
                if (id != null && id.getPattern() != null) {
                    return id.getPattern();
                }
            }
        }
        return null;
    }
}
