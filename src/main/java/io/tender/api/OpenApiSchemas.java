package io.tender.api;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Small tools over swagger-core's model of the OpenAPI document, for the customisers that shape it
 * ({@link DocumentShape}, and other modules' {@link DocumentPart}s). A schema's properties are never changed in place
 * where a schema object may be shared: a property is replaced in its map instead.
 */
public final class OpenApiSchemas {

    public static final String COMPONENTS = "#/components/schemas/";

    private OpenApiSchemas() {
    }

    /** A reference to the named component. */
    public static Schema<?> ref(String name) {
        return new JsonSchema().$ref(COMPONENTS + name);
    }

    /** A schema of the given JSON type (OpenAPI 3.1: {@code type} as a set). */
    public static Schema<?> typed(String type) {
        Schema<?> schema = new JsonSchema();
        schema.setTypes(new LinkedHashSet<>(List.of(type)));
        return schema;
    }

    /** An object schema with these properties, in order, all of them required where named. */
    public static Schema<?> object(String description, Map<String, Schema> properties, List<String> required) {
        Schema<?> schema = typed("object").description(description);
        schema.setProperties(new LinkedHashMap<>(properties));
        if (!required.isEmpty()) {
            schema.setRequired(new ArrayList<>(required));
        }
        return schema;
    }

    /** A string that is exactly this value (a union member's discriminator). */
    public static Schema<?> constant(String value) {
        Schema<?> schema = typed("string");
        schema.setConst(value);
        return schema;
    }

    /** The component's name when the schema is a reference to one, else null. */
    public static String refName(Schema<?> schema) {
        return schema != null && schema.get$ref() != null && schema.get$ref().startsWith(COMPONENTS)
                ? schema.get$ref().substring(COMPONENTS.length()) : null;
    }

    /** Whether the schema is of this JSON type (3.0's {@code type} or 3.1's set). */
    public static boolean isType(Schema<?> schema, String type) {
        return type.equals(schema.getType()) || (schema.getTypes() != null && schema.getTypes().contains(type));
    }

    /** A copy of the schema that shares its property schemas but not its property map or required list. */
    public static Schema<?> shallowCopy(Schema<?> source) {
        Schema<?> copy = typed("object").description(source.getDescription());
        copy.setProperties(source.getProperties() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(source.getProperties()));
        if (source.getRequired() != null) {
            copy.setRequired(new ArrayList<>(source.getRequired()));
        }
        copy.setAdditionalProperties(source.getAdditionalProperties());
        return copy;
    }

    /** Every operation of the document. */
    public static void forEachOperation(OpenAPI openApi, Consumer<Operation> action) {
        if (openApi.getPaths() == null) {
            return;
        }
        for (PathItem item : openApi.getPaths().values()) {
            item.readOperations().forEach(action);
        }
    }

    /**
     * Replaces every schema of the document that {@code replace} changes, depth first: component schemas' insides
     * (not the components themselves), parameters, request bodies, responses and headers.
     */
    public static void replaceAll(OpenAPI openApi, UnaryOperator<Schema> replace) {
        if (openApi.getComponents() != null && openApi.getComponents().getSchemas() != null) {
            openApi.getComponents().getSchemas().values().forEach(s -> replaceInside(s, replace));
        }
        forEachOperation(openApi, operation -> {
            if (operation.getParameters() != null) {
                for (Parameter parameter : operation.getParameters()) {
                    if (parameter.getSchema() != null) {
                        parameter.setSchema(replaceDeep(parameter.getSchema(), replace));
                    }
                }
            }
            if (operation.getRequestBody() != null && operation.getRequestBody().getContent() != null) {
                operation.getRequestBody().getContent().values().forEach(m -> replaceMedia(m, replace));
            }
            if (operation.getResponses() != null) {
                operation.getResponses().values().forEach(r -> {
                    if (r.getContent() != null) {
                        r.getContent().values().forEach(m -> replaceMedia(m, replace));
                    }
                });
            }
        });
    }

    private static void replaceMedia(MediaType media, UnaryOperator<Schema> replace) {
        if (media.getSchema() != null) {
            media.setSchema(replaceDeep(media.getSchema(), replace));
        }
    }

    private static Schema replaceDeep(Schema schema, UnaryOperator<Schema> replace) {
        replaceInside(schema, replace);
        return replace.apply(schema);
    }

    @SuppressWarnings("unchecked")
    private static void replaceInside(Schema<?> schema, UnaryOperator<Schema> replace) {
        if (schema.getProperties() != null) {
            schema.getProperties().replaceAll((name, property) -> replaceDeep(property, replace));
        }
        if (schema.getItems() != null) {
            schema.setItems(replaceDeep(schema.getItems(), replace));
        }
        if (schema.getAdditionalProperties() instanceof Schema<?> values) {
            schema.setAdditionalProperties(replaceDeep(values, replace));
        }
        if (schema.getOneOf() != null) {
            schema.setOneOf(replaceEach(schema.getOneOf(), replace));
        }
        if (schema.getAnyOf() != null) {
            schema.setAnyOf(replaceEach(schema.getAnyOf(), replace));
        }
        if (schema.getAllOf() != null) {
            schema.setAllOf(replaceEach(schema.getAllOf(), replace));
        }
    }

    private static List<Schema> replaceEach(List<Schema> branches, UnaryOperator<Schema> replace) {
        List<Schema> replaced = new ArrayList<>();
        branches.forEach(branch -> replaced.add(replaceDeep(branch, replace)));
        return replaced;
    }
}
