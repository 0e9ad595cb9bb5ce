package io.tender.api;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.Schema;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static io.tender.api.OpenApiSchemas.isType;
import static io.tender.api.OpenApiSchemas.ref;
import static io.tender.api.OpenApiSchemas.refName;
import static io.tender.api.OpenApiSchemas.typed;

/**
 * Shapes the whole OpenAPI document for client generators (decisions §14, issue 36), after {@link ApiConventions}
 * and every module's {@link DocumentPart}: the one {@link GlobalOpenApiCustomizer}, so that the steps run in this
 * order. {@code OpenApiShapeIT} checks the outcome; the generators under {@code sdk/checks} compile it.
 */
@Component
class DocumentShape implements GlobalOpenApiCustomizer {

    static final String METADATA = "Metadata";
    static final String METADATA_PATCH = "MetadataPatch";

    /** Free-form objects, by the property that holds them: each one named component, not a class per place. */
    private static final Map<String, String> FREE_FORM = Map.of(
            "provider_reference", "ProviderReference",
            "redemption_options", "RedemptionOptions",
            "provider_metadata", "ProviderMetadata",
            "source", "MaskedSource",
            "custom_fields", "CustomFieldAnswers");

    private static final Map<String, String> FREE_FORM_DESCRIPTIONS = Map.of(
            "ProviderReference", "The provider's references for an operation; its shape is the provider's.",
            "RedemptionOptions", "Provider-specific options, forwarded to the provider on each operation.",
            "ProviderMetadata", "What the provider told of the voucher; its shape is the provider's.",
            "MaskedSource", "A voucher's credentials as the API shows them: secrets masked to their last four characters.",
            "CustomFieldAnswers", "The payer's answers to a payment page's custom fields, by the field's `key`.");

    private final ApiConventions conventions;
    private final ObjectProvider<DocumentPart> parts;

    DocumentShape(ApiConventions conventions, ObjectProvider<DocumentPart> parts) {
        this.conventions = conventions;
        this.parts = parts;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public void customise(OpenAPI openApi) {
        conventions.customise(openApi);
        parts.orderedStream().forEach(part -> part.contribute(openApi));
        Map<String, Schema> components = openApi.getComponents().getSchemas();
        withoutEmptyBodies(openApi, components);
        listEnvelopes(components);
        openProblemCode(components.get("ProblemDetail"));
        namedMaps(components);
        typedOptions(components);
        ValueRules.declare(openApi, components);
        DocumentUnions.shape(components);
        closeRequests(openApi, components);
        NamedEnums.name(openApi);
        openApi.getComponents().setSchemas(new TreeMap<>(components));
    }

    /**
     * An action that takes no input declares {@link EmptyRequest} in its annotations (the handler reads the body to
     * refuse properties): the document shows no request body at all. The service still takes none, or {@code {}}.
     */
    private static void withoutEmptyBodies(OpenAPI openApi, Map<String, Schema> components) {
        OpenApiSchemas.forEachOperation(openApi, operation -> {
            Content content = operation.getRequestBody() == null ? null : operation.getRequestBody().getContent();
            if (content != null && content.values().stream().anyMatch(m -> "EmptyRequest".equals(refName(m.getSchema())))) {
                operation.setRequestBody(null);
            }
        });
        components.remove("EmptyRequest");
    }

    /** A cursor page always has its three fields (next_cursor null on the last page). */
    private static void listEnvelopes(Map<String, Schema> components) {
        components.values().forEach(schema -> {
            Map<String, Schema> properties = schema.getProperties();
            if (properties != null && properties.keySet().containsAll(List.of("data", "has_more", "next_cursor"))) {
                Set<String> required = new LinkedHashSet<>(List.of("data", "has_more", "next_cursor"));
                if (schema.getRequired() != null) {
                    required.addAll(schema.getRequired());
                }
                schema.setRequired(new ArrayList<>(required));
            }
        });
    }

    /**
     * A problem's {@code code} is an open string: a client must still read a problem whose code it does not know
     * yet. The known codes are listed in the description and in {@code x-extensible-enum}, which generators ignore.
     */
    @SuppressWarnings("unchecked")
    private static void openProblemCode(Schema<?> problem) {
        if (problem == null || problem.getProperties() == null) {
            return;
        }
        List<String> codes = Arrays.stream(ProblemCode.values()).map(ProblemCode::code).toList();
        Schema<?> code = typed("string").description("What went wrong, for a program to branch on. An open set: "
                + "new codes may be added, so treat an unknown one by its `status`. Known codes: "
                + codes.stream().map(c -> "`" + c + "`").collect(Collectors.joining(", ")) + ".");
        code.addExtension("x-extensible-enum", codes);
        problem.getProperties().put("code", code);
    }

    /**
     * Every {@code metadata} is one of two components ({@code MetadataPatch} in a PATCH, where null removes a key),
     * and every other free-form map one named component ({@link #FREE_FORM}), instead of one inline object each.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void namedMaps(Map<String, Schema> components) {
        Map<String, Schema> added = new LinkedHashMap<>();
        components.values().forEach(schema -> {
            Map<String, Schema> properties = schema.getProperties();
            if (properties == null) {
                return;
            }
            properties.replaceAll((name, property) -> {
                if (!inlineMap(property)) {
                    return property;
                }
                if (name.equals("metadata")) {
                    return ref(Metadata.PATCH_DESCRIPTION.equals(property.getDescription()) ? METADATA_PATCH : METADATA);
                }
                String named = FREE_FORM.get(name);
                if (named == null) {
                    return property;
                }
                added.computeIfAbsent(named, n -> {
                    Schema map = typed("object").description(FREE_FORM_DESCRIPTIONS.get(n));
                    map.setAdditionalProperties(property.getAdditionalProperties());
                    return map;
                });
                return ref(named);
            });
        });
        added.put(METADATA, metadata(false));
        added.put(METADATA_PATCH, metadata(true));
        components.putAll(added);
    }

    private static boolean inlineMap(Schema<?> property) {
        return property.get$ref() == null && property.getProperties() == null
                && (isType(property, "object") || property.getAdditionalProperties() != null);
    }

    /** decisions §4's metadata: at most 20 keys of 1 to 40 characters, string values of at most 500. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Schema<?> metadata(boolean patch) {
        Schema values = typed("string").maxLength(500);
        if (patch) {
            values.setTypes(new LinkedHashSet<>(List.of("string", "null")));
        }
        Schema keys = typed("string").minLength(1).maxLength(40);
        Schema<?> metadata = typed("object").description(patch
                ? Metadata.PATCH_DESCRIPTION + " At most " + Metadata.MAX_KEYS + " keys after the merge; key names 1 to "
                        + "40 characters; values strings of at most 500 characters."
                : "Your own key-value pairs: at most " + Metadata.MAX_KEYS + " keys; key names 1 to 40 characters; values "
                        + "strings of at most 500 characters.");
        if (!patch) {
            // A PATCH's limit is on the merged metadata: a patch of more keys may remove some.
            metadata.setMaxProperties(Metadata.MAX_KEYS);
        }
        metadata.setPropertyNames(keys);
        metadata.setAdditionalProperties(values);
        return metadata;
    }

    /**
     * The options a session, mandate or subscription holds are the options it was given, defaults included: typed
     * as the request's. A mandate's terms add what a subscription's mandate shows instead of an execution constraint.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void typedOptions(Map<String, Schema> components) {
        replaceProperty(components.get("PaymentSession"), "options", ref("SessionOptions"));
        Schema<?> mandateOptions = components.get("MandateOptions");
        if (mandateOptions != null && replaceProperty(components.get("Mandate"), "options", ref("MandateTerms"))) {
            Schema<?> terms = OpenApiSchemas.shallowCopy(mandateOptions).description("What the customer agreed to be "
                    + "charged, as the mandate holds it (defaults included). A subscription's mandate shows its "
                    + "`interval`, `interval_count`, `anchor_date` and `first_index` instead of an execution constraint.");
            terms.setRequired(null);
            Map<String, Schema> properties = terms.getProperties();
            properties.put("interval", typed("string").description("A subscription's mandate: its interval."));
            properties.put("interval_count", typed("integer").minimum(BigDecimal.ONE));
            properties.put("anchor_date", typed("string").format("date").description("A subscription's mandate: the "
                    + "date its periods count from."));
            properties.put("first_index", typed("integer").description("A subscription's mandate: the number of its "
                    + "first charge's period."));
            components.put("MandateTerms", terms);
        }
        Schema<?> subscriptionOptions = components.get("SubscriptionOptions");
        if (subscriptionOptions != null && replaceProperty(components.get("Subscription"), "options", ref("SubscriptionTerms"))) {
            Schema<?> terms = OpenApiSchemas.shallowCopy(subscriptionOptions).description("The subscription's options, "
                    + "as it holds them (defaults included).");
            components.put("SubscriptionTerms", terms);
        }
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static boolean replaceProperty(Schema<?> schema, String property, Schema<?> replacement) {
        if (schema == null || schema.getProperties() == null || !schema.getProperties().containsKey(property)) {
            return false;
        }
        Schema<?> old = schema.getProperties().get(property);
        ((Map) schema.getProperties()).put(property, replacement.description(old.getDescription()));
        return true;
    }

    /**
     * A request property's default is said in its description, not as {@code default}: openapi-typescript (by
     * default) makes a property with a {@code default} required, which the caller need not send.
     */
    private static void defaultInWords(Schema<?> property) {
        Object value = property.getDefault();
        if (value == null) {
            return;
        }
        String said = "Default: `" + value + "`.";
        String description = property.getDescription();
        property.setDescription(description == null ? said : description.contains(said) ? description
                : description + " " + said);
        if (property.getExample() == null && property.get$ref() == null) {
            property.setExample(value);
        }
        property.setDefault(null);
        property.setDefaultSetFlag(false);
    }

    /**
     * Every object a request body may hold refuses unknown properties (the service does, by name): declared with
     * {@code additionalProperties: false} on each, so that a generator's types and a validator agree. Its
     * properties' defaults are said in words ({@link #defaultInWords}).
     */
    @SuppressWarnings("rawtypes")
    private static void closeRequests(OpenAPI openApi, Map<String, Schema> components) {
        Deque<Schema> todo = new ArrayDeque<>();
        OpenApiSchemas.forEachOperation(openApi, operation -> {
            if (operation.getRequestBody() != null && operation.getRequestBody().getContent() != null) {
                operation.getRequestBody().getContent().values().forEach(m -> todo.add(m.getSchema()));
            }
        });
        Set<Schema> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        Set<String> names = new HashSet<>();
        while (!todo.isEmpty()) {
            Schema<?> schema = todo.pop();
            if (schema == null || !seen.add(schema)) {
                continue;
            }
            String name = refName(schema);
            if (name != null) {
                if (names.add(name) && components.containsKey(name)) {
                    todo.add(components.get(name));
                }
                continue;
            }
            if (schema.getProperties() != null) {
                if (schema.getAdditionalProperties() == null) {
                    schema.setAdditionalProperties(false);
                }
                schema.getProperties().values().forEach(DocumentShape::defaultInWords);
                todo.addAll(schema.getProperties().values());
            }
            if (schema.getItems() != null) {
                todo.add(schema.getItems());
            }
            for (List<Schema> branches : Arrays.asList(schema.getOneOf(), schema.getAnyOf(), schema.getAllOf())) {
                if (branches != null) {
                    todo.addAll(branches);
                }
            }
        }
    }
}
