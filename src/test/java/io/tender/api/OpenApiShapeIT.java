package io.tender.api;

import io.tender.event.EventTypes;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The served {@code /openapi.json} is shaped for client generators (decisions §14, issue 36; the generators
 * themselves run over the committed copy in {@code sdk/checks}). The rules, over every schema of the document (the
 * component schemas' insides, parameters, bodies, responses, webhooks), a "place" being any schema that is not itself
 * a component:
 * <ul>
 *   <li>no inline object: no place has {@code properties}, or is an object or map ({@code type: object},
 *   {@code additionalProperties} a schema): each is a named component that places refer to;</li>
 *   <li>no repeated inline enum: an enum's set of values at a place appears at no other place and in no component
 *   (then it is a named enum, and both places refer to it);</li>
 *   <li>every {@code oneOf} of only references is a discriminated union: a {@code discriminator} whose mapping names
 *   each member, and each member's discriminator property a {@code const} of its key.</li>
 * </ul>
 */
class OpenApiShapeIT extends ApiIntegrationTest {

    private JsonNode document;
    private JsonNode components;

    @BeforeEach
    void document() {
        document = anonymous().get("/openapi.json").send().json();
        components = document.path("components").path("schemas");
    }

    /** Every schema that is not a component, with where it is. */
    private Map<String, JsonNode> places() {
        Map<String, JsonNode> places = new HashMap<>();
        for (Map.Entry<String, JsonNode> component : components.properties()) {
            inside(component.getValue(), "#/components/schemas/" + component.getKey(), places);
        }
        walk(document.path("paths"), "#/paths", places);
        walk(document.path("webhooks"), "#/webhooks", places);
        return places;
    }

    private static void inside(JsonNode schema, String at, Map<String, JsonNode> places) {
        for (Map.Entry<String, JsonNode> field : schema.properties()) {
            walk(field.getValue(), at + "/" + field.getKey(), places);
        }
    }

    private static void walk(JsonNode node, String at, Map<String, JsonNode> places) {
        if (node.isObject()) {
            if (at.endsWith("/schema") || at.contains("/properties/") || at.endsWith("/items")
                    || at.endsWith("/additionalProperties") || at.matches(".*/(oneOf|anyOf|allOf)/\\d+$")) {
                places.put(at, node);
            }
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                walk(field.getValue(), at + "/" + field.getKey(), places);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), at + "/" + i, places);
            }
        }
    }

    @Test
    void everyObjectIsANamedSchema() {
        List<String> inline = new ArrayList<>();
        places().forEach((at, schema) -> {
            boolean object = schema.has("properties") || schema.path("type").asString("").equals("object")
                    || schema.path("additionalProperties").isObject();
            if (object && !at.endsWith("/propertyNames")) {
                inline.add(at);
            }
        });
        assertThat(inline).as("inline objects: name them (DocumentShape)").isEmpty();
    }

    @Test
    void noEnumIsRepeatedInline() {
        Map<Set<String>, List<String>> bySet = new HashMap<>();
        places().forEach((at, schema) -> {
            if (schema.has("enum")) {
                bySet.computeIfAbsent(values(schema), v -> new ArrayList<>()).add(at);
            }
        });
        for (Map.Entry<String, JsonNode> component : components.properties()) {
            if (component.getValue().has("enum")) {
                bySet.computeIfAbsent(values(component.getValue()), v -> new ArrayList<>())
                        .add("#/components/schemas/" + component.getKey());
            }
        }
        List<String> repeated = new ArrayList<>();
        bySet.forEach((values, at) -> {
            if (at.size() > 1 && at.stream().anyMatch(a -> a.contains("/properties/") || a.startsWith("#/paths")
                    || a.endsWith("/items") || a.endsWith("/schema"))) {
                repeated.add(values + " at " + at);
            }
        });
        assertThat(repeated).as("inline enums used in more than one place: name them (NamedEnums)").isEmpty();
    }

    private static Set<String> values(JsonNode schema) {
        Set<String> values = new TreeSet<>();
        schema.path("enum").forEach(v -> values.add(v.asString()));
        return values;
    }

    @Test
    void everyUnionOfObjectsIsDiscriminatedByAConstant() {
        List<String> wrong = new ArrayList<>();
        Map<String, JsonNode> all = new HashMap<>(places());
        components.properties().forEach(c -> all.put("#/components/schemas/" + c.getKey(), c.getValue()));
        int unions = 0;
        for (Map.Entry<String, JsonNode> entry : all.entrySet()) {
            JsonNode oneOf = entry.getValue().path("oneOf");
            boolean allRefs = oneOf.size() > 1;
            for (JsonNode branch : oneOf) {
                allRefs &= branch.has("$ref") && resolve(branch).has("properties");
            }
            if (!allRefs) {
                continue;
            }
            unions++;
            JsonNode discriminator = entry.getValue().path("discriminator");
            String property = discriminator.path("propertyName").asString("");
            if (property.isEmpty()) {
                wrong.add(entry.getKey() + ": no discriminator");
                continue;
            }
            Set<String> mapped = new HashSet<>();
            for (Map.Entry<String, JsonNode> mapping : discriminator.path("mapping").properties()) {
                mapped.add(mapping.getValue().asString());
                JsonNode member = resolve(io.tender.support.Api.JSON.createObjectNode().put("$ref", mapping.getValue().asString()));
                if (!mapping.getKey().equals(member.path("properties").path(property).path("const").asString(null))
                        || !member.path("required").toString().contains("\"" + property + "\"")) {
                    wrong.add(entry.getKey() + ": " + mapping.getValue().asString() + " has no required const "
                            + property + " = " + mapping.getKey());
                }
            }
            oneOf.forEach(branch -> {
                if (!mapped.contains(branch.path("$ref").asString())) {
                    wrong.add(entry.getKey() + ": " + branch + " is not in the mapping");
                }
            });
        }
        assertThat(wrong).isEmpty();
        // Redemption requests and lookups, redemptions (change vouchers), payment method details, events.
        assertThat(unions).isGreaterThanOrEqualTo(5);
        assertThat(components.path("Redemption").path("discriminator").path("propertyName").asString()).isEqualTo("type");
        assertThat(components.path("CreateRedemptionRequest").path("discriminator").path("mapping").size()).isEqualTo(3);
        assertThat(components.path("PaymentMethodDetails").path("oneOf").size()).isEqualTo(4);
        assertThat(components.path("Event").path("oneOf").size()).isEqualTo(EventTypes.ALL.size());
    }

    private JsonNode resolve(JsonNode reference) {
        String ref = reference.path("$ref").asString("");
        return ref.startsWith("#/components/schemas/")
                ? components.path(ref.substring("#/components/schemas/".length())) : reference;
    }

    @Test
    void listsActionsProblemsAndKeysAreDeclaredAsClientsReadThem() {
        components.properties().forEach(c -> {
            if (c.getValue().path("properties").has("has_more")) {
                assertThat(c.getValue().path("required").toString()).as(c.getKey())
                        .contains("\"data\"", "\"has_more\"", "\"next_cursor\"");
            }
        });
        assertThat(components.has("EmptyRequest")).isFalse();
        for (String action : List.of("/collect/redemptions/{id}/reverse", "/billing/bills/{bill}/void",
                "/webhook_endpoints/{id}/rotate_secret", "/collect/payment_sessions/{id}/cancel")) {
            assertThat(document.path("paths").path(action).path("post").has("requestBody")).as(action).isFalse();
        }
        assertThat(document.path("paths").path("/collect/payment_requests/{id}").path("delete").has("requestBody")).isFalse();

        JsonNode code = components.path("ProblemDetail").path("properties").path("code");
        assertThat(code.has("enum")).isFalse();
        assertThat(code.path("type").asString()).isEqualTo("string");
        assertThat(code.path("x-extensible-enum")).extracting(JsonNode::asString)
                .containsExactlyElementsOf(Arrays.stream(ProblemCode.values()).map(ProblemCode::code).toList());

        JsonNode bearer = document.path("components").path("securitySchemes").path("bearer");
        assertThat(bearer.path("scheme").asString()).isEqualTo("bearer");
        assertThat(bearer.has("bearerFormat")).isFalse();
        assertThat(document.path("servers").path(0).path("url").asString()).isEqualTo(base());
    }

    @Test
    void aPathsIdHasThePatternOfTheObjectThePathNames() {
        Map<String, String> expected = Map.of(
                "/collect/payments/{id}/refunds", "^pay_", "/collect/payments/{id}", "^pay_",
                "/collect/redemptions/{id}/reverse", "^rdm_", "/webhook_endpoints/{id}/deliveries", "^we_",
                "/events/{id}/redeliver", "^evt_", "/collect/test_helpers/subscriptions/{id}/advance", "^sub_",
                "/collect/payment_pages/{id}/qr.png", "^pp_");
        expected.forEach((path, prefix) -> document.path("paths").path(path).forEach(operation ->
                operation.path("parameters").forEach(parameter -> {
                    if (parameter.path("in").asString().equals("path")) {
                        assertThat(parameter.path("schema").path("pattern").asString()).as(path).startsWith(prefix);
                    }
                })));
    }

    @Test
    void everyOperationHasOneTagNamingItsResource() {
        Set<String> declared = new HashSet<>();
        document.path("tags").forEach(t -> declared.add(t.path("name").asString()));
        Set<String> used = new TreeSet<>();
        for (JsonNode item : List.of(document.path("paths"), document.path("webhooks"))) {
            item.forEach(path -> path.forEach(operation -> {
                assertThat(operation.path("tags").size()).as(operation.path("operationId").asString()).isEqualTo(1);
                used.add(operation.path("tags").path(0).asString());
            }));
        }
        assertThat(declared).containsAll(used);
        assertThat(used).contains("Customers", "Accounts", "Bills", "Webhook endpoints", "Webhooks")
                .doesNotContain("Billing");
    }

    @Test
    void theWebhooksSectionListsEveryEventTypeWithItsPayload() {
        JsonNode webhooks = document.path("webhooks");
        assertThat(webhooks.propertyNames()).containsExactlyInAnyOrderElementsOf(EventTypes.ALL);
        for (String type : EventTypes.ALL) {
            JsonNode body = webhooks.path(type).path("post").path("requestBody").path("content")
                    .path("application/json").path("schema");
            JsonNode member = resolve(body);
            assertThat(member.path("properties").path("type").path("const").asString()).isEqualTo(type);
            assertThat(resolve(member.path("properties").path("data")).isMissingNode()).as(type).isFalse();
        }
        assertThat(resolve(webhooks.path("redemption.confirmed").path("post").path("requestBody").path("content")
                .path("application/json").path("schema")).path("properties").path("data").path("$ref").asString())
                .isEqualTo("#/components/schemas/Redemption");
    }

    @Test
    void requestObjectsRefuseUnknownPropertiesAndStateNoDefault() {
        List<String> open = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        List<JsonNode> todo = new ArrayList<>();
        document.path("paths").forEach(path -> path.forEach(operation ->
                operation.path("requestBody").path("content").forEach(media -> todo.add(media.path("schema")))));
        while (!todo.isEmpty()) {
            JsonNode schema = todo.removeLast();
            if (schema.has("$ref")) {
                if (seen.add(schema.path("$ref").asString())) {
                    todo.add(resolve(schema));
                }
                continue;
            }
            if (schema.has("properties") && !schema.path("additionalProperties").isBoolean()) {
                open.add(schema.toString().substring(0, Math.min(120, schema.toString().length())));
            }
            schema.path("properties").forEach(p -> {
                if (p.has("default")) {
                    open.add("a default: " + p);
                }
                todo.add(p);
            });
            for (String nested : List.of("items", "additionalProperties")) {
                if (schema.path(nested).isObject()) {
                    todo.add(schema.path(nested));
                }
            }
            for (String combinator : List.of("oneOf", "anyOf", "allOf")) {
                schema.path(combinator).forEach(todo::add);
            }
        }
        assertThat(open).isEmpty();
        assertThat(seen).contains("#/components/schemas/SessionOptions", "#/components/schemas/Metadata");
    }
}
