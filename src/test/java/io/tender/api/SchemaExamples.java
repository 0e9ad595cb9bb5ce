package io.tender.api;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Builds a valid JSON value from an OpenAPI 3.1 schema of /openapi.json: the required properties (plus any the
 * caller names), each from its {@code example}, else its first {@code enum} value, else the first {@code oneOf}
 * branch, else a value of its type within its bounds, format and pattern. Properties that hold the id of another
 * object ({@code customer}, {@code account}, ...) take a real one from {@code references}. Strings that may have to be
 * unique (external references, names) carry a counter.
 */
final class SchemaExamples {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final JsonNode schemas;
    private final Function<String, String> references;
    private final String nonce;
    private int counter;

    /**
     * @param document   the OpenAPI document
     * @param references gives a real id for a property that names another object, or null if the name is no reference
     * @param nonce      makes the generated unique strings unique across runs on one database
     */
    SchemaExamples(JsonNode document, Function<String, String> references, String nonce) {
        this.schemas = document.path("components").path("schemas");
        this.references = references;
        this.nonce = nonce;
    }

    /** Follows local {@code $ref}s to the schema itself. */
    JsonNode resolve(JsonNode schema) {
        JsonNode current = schema;
        for (int hops = 0; current != null && current.has("$ref"); hops++) {
            String ref = current.get("$ref").stringValue();
            if (!ref.startsWith("#/components/schemas/") || hops > 20) {
                throw new IllegalStateException("cannot follow " + ref);
            }
            current = schemas.get(ref.substring("#/components/schemas/".length()));
        }
        if (current == null) {
            throw new IllegalStateException("a $ref that does not resolve: " + schema);
        }
        return current;
    }

    /** The object schema's declared properties (none for a null schema), following the first {@code oneOf} branch that is an object. */
    Map<String, JsonNode> properties(JsonNode schema) {
        JsonNode object = schema == null ? null : objectBranch(schema);
        Map<String, JsonNode> properties = new java.util.LinkedHashMap<>();
        if (object != null) {
            object.path("properties").properties().forEach(p -> properties.put(p.getKey(), p.getValue()));
        }
        return properties;
    }

    /** The schema itself if it describes an object, else its first {@code oneOf}/{@code anyOf} branch that does. */
    /**
     * The object branch {@code value} is an instance of: in a discriminated union, the member its discriminator
     * property names; else the first object branch.
     */
    JsonNode objectBranch(JsonNode schema, JsonNode value) {
        JsonNode resolved = resolve(schema);
        JsonNode discriminator = resolved.path("discriminator");
        String property = discriminator.path("propertyName").stringValue("");
        if (!property.isEmpty() && value != null && value.path(property).isString()) {
            JsonNode member = discriminator.path("mapping").path(value.path(property).stringValue());
            if (member.isString()) {
                return objectBranch(JsonNodeFactory.instance.objectNode()
                        .put("$ref", member.stringValue()));
            }
        }
        return objectBranch(schema);
    }

    JsonNode objectBranch(JsonNode schema) {
        JsonNode resolved = resolve(schema);
        if (types(resolved).contains("object") || resolved.has("properties")) {
            return resolved;
        }
        for (String combinator : List.of("oneOf", "anyOf", "allOf")) {
            for (JsonNode branch : resolved.path(combinator)) {
                JsonNode object = objectBranch(branch);
                if (object != null) {
                    return object;
                }
            }
        }
        return null;
    }

    /** A valid value for this schema; {@code name} is the property it is for (or null for a whole body). */
    JsonNode valid(JsonNode schema, String name, Set<String> alsoInclude) {
        if (name != null) {
            String reference = references.apply(name);
            if (reference != null) {
                return NODES.stringNode(reference);
            }
        }
        JsonNode resolved = resolve(schema);
        if (resolved.has("example")) {
            return resolved.get("example").deepCopy();
        }
        if (resolved.has("enum")) {
            return resolved.get("enum").get(0).deepCopy();
        }
        for (String combinator : List.of("oneOf", "anyOf")) {
            if (resolved.has(combinator)) {
                return valid(resolved.get(combinator).get(0), null, alsoInclude);
            }
        }
        List<String> types = types(resolved);
        String type = types.stream().filter(t -> !t.equals("null")).findFirst()
                .orElse(resolved.has("properties") ? "object" : "null");
        return switch (type) {
            case "object" -> object(resolved, alsoInclude);
            case "array" -> {
                ArrayNode array = NODES.arrayNode();
                if (resolved.has("items")) {
                    array.add(valid(resolved.get("items"), null, Set.of()));
                }
                yield array;
            }
            case "string" -> NODES.stringNode(string(resolved));
            case "integer" -> NODES.numberNode(bounded(resolved, 100));
            case "number" -> NODES.numberNode(bounded(resolved, 100));
            case "boolean" -> NODES.booleanNode(true);
            default -> NODES.nullNode();
        };
    }

    private ObjectNode object(JsonNode schema, Set<String> alsoInclude) {
        ObjectNode object = NODES.objectNode();
        Set<String> required = new java.util.HashSet<>();
        schema.path("required").forEach(r -> required.add(r.stringValue()));
        schema.path("properties").properties().forEach(property -> {
            if (required.contains(property.getKey()) || alsoInclude.contains(property.getKey())) {
                object.set(property.getKey(), valid(property.getValue(), property.getKey(), Set.of()));
            }
        });
        return object;
    }

    static List<String> types(JsonNode schema) {
        JsonNode type = schema.get("type");
        List<String> types = new ArrayList<>();
        if (type == null) {
            return types;
        }
        if (type.isArray()) {
            type.forEach(t -> types.add(t.stringValue()));
        } else {
            types.add(type.stringValue());
        }
        return types;
    }

    private static long bounded(JsonNode schema, long preferred) {
        long value = preferred;
        if (schema.has("minimum")) {
            value = Math.max(value, schema.get("minimum").longValue());
        }
        if (schema.has("maximum")) {
            value = Math.min(value, schema.get("maximum").longValue());
        }
        return value;
    }

    /** The first candidate that fits the schema's format, pattern and length; a unique one where possible. */
    private String string(JsonNode schema) {
        String format = schema.path("format").stringValue("");
        switch (format) {
            case "date" -> {
                return "2030-01-31";
            }
            case "date-time" -> {
                return "2030-01-31T00:00:00.000Z";
            }
            case "email" -> {
                return "fuzz@example.com";
            }
            case "uri", "url" -> {
                return "https://example.com/fuzz";
            }
            default -> {
            }
        }
        int n = ++counter;
        List<String> candidates = List.of("fuzz-" + nonce + "-" + n, "fuzz" + nonce + n, "ZAR", "+27821234567",
                "fuzz");
        int min = schema.path("minLength").intValue(0);
        int max = schema.path("maxLength").intValue(Integer.MAX_VALUE);
        Pattern pattern = schema.has("pattern") ? Pattern.compile(schema.get("pattern").stringValue()) : null;
        for (String candidate : candidates) {
            if (candidate.length() >= min && candidate.length() <= max
                    && (pattern == null || pattern.matcher(candidate).find())) {
                return candidate;
            }
        }
        throw new IllegalStateException("no generated string fits " + schema + ": add a seed body for this operation");
    }
}
