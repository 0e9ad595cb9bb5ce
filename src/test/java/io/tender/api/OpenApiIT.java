package io.tender.api;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The OpenAPI document at /openapi.json describes the redemption API as the spec and decisions define it. */
class OpenApiIT extends ApiIntegrationTest {

    private JsonNode document;

    @BeforeEach
    void document() {
        var response = anonymous().get("/openapi.json").send();
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.contentType()).startsWith("application/json");
        document = response.json();
    }

    private JsonNode schema(String name) {
        JsonNode schema = document.get("components").get("schemas").get(name);
        assertThat(schema).as("schema " + name).isNotNull();
        return schema;
    }

    /** Follows a local {@code $ref} to its schema (or to another component: a response header's). */
    private JsonNode resolve(JsonNode node) {
        if (node.has("$ref")) {
            String ref = node.get("$ref").stringValue();
            assertThat(ref).matches("^#/components/(schemas|headers|parameters)/[A-Za-z0-9_.-]+$");
            if (!ref.startsWith("#/components/schemas/")) {
                JsonNode component = document.at(ref.substring(1));
                assertThat(component.isMissingNode()).as(ref).isFalse();
                return component;
            }
            return schema(ref.substring("#/components/schemas/".length()));
        }
        return node;
    }

    private JsonNode operation(String path, String method) {
        JsonNode item = document.get("paths").get(path);
        assertThat(item).as(path).isNotNull();
        JsonNode operation = item.get(method);
        assertThat(operation).as(method + " " + path).isNotNull();
        return operation;
    }

    private static List<String> texts(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.stringValue()));
        return values;
    }

    @Test
    void theDocumentIsOpenApi31AndListsTheRedemptionEndpoints() {
        assertThat(document.get("openapi").stringValue()).startsWith("3.1");
        operation("/collect/redemptions", "post");
        operation("/collect/redemptions", "get");
        operation("/collect/redemptions/{id}", "get");
        // Internal endpoints are not part of the published API.
        List<String> paths = new ArrayList<>();
        document.get("paths").propertyNames().forEach(paths::add);
        assertThat(paths).noneMatch(p -> p.startsWith("/admin") || p.startsWith("/error") || p.startsWith("/problems")
                || p.startsWith("/test-only"));
    }

    @Test
    void everyReferenceInTheDocumentResolves() {
        List<String> refs = new ArrayList<>();
        collectRefs(document, refs);
        assertThat(refs).isNotEmpty();
        for (String ref : refs) {
            resolve(Api.JSON.createObjectNode().put("$ref", ref));
        }
    }

    @Test
    void noJsonResponseIsDocumentedAsAPlainString() {
        // springdoc silently documents a body it cannot introspect (or a ResponseEntity<byte[]>) as a string.
        document.get("paths").properties().forEach(path -> path.getValue().properties().forEach(operation -> {
            JsonNode responses = operation.getValue().get("responses");
            if (responses == null) {
                return;
            }
            responses.properties().forEach(response -> {
                JsonNode content = response.getValue().get("content");
                if (content == null) {
                    return;
                }
                content.properties().forEach(media -> {
                    if (media.getKey().startsWith("image/")) {
                        return; // an image (a QR code) is a binary string by nature
                    }
                    JsonNode schema = resolve(media.getValue().get("schema"));
                    assertThat(schema.path("type").stringValue(""))
                            .as(operation.getKey() + " " + path.getKey() + " " + response.getKey() + " " + media.getKey())
                            .isNotEqualTo("string");
                    assertThat(schema.size()).as("an empty schema for " + path.getKey()).isPositive();
                });
            });
        }));
        document.get("components").get("schemas").properties().forEach(schema ->
                assertThat(schema.getValue().size()).as("schema " + schema.getKey()).isPositive());
    }

    private static void collectRefs(JsonNode node, List<String> refs) {
        if (node.isObject() && node.has("$ref")) {
            refs.add(node.get("$ref").stringValue());
        }
        node.forEach(child -> collectRefs(child, refs));
    }

    @Test
    void theApiDeclaresItsVersionAndBearerAuthentication() {
        assertThat(document.get("info").get("version").stringValue()).isEqualTo("1.0.0");
        JsonNode bearer = document.get("components").get("securitySchemes").get("bearer");
        assertThat(bearer.get("type").stringValue()).isEqualTo("http");
        assertThat(bearer.get("scheme").stringValue()).isEqualTo("bearer");
        // API spec, Authentication rule 1: "HTTP bearer scheme, JWT-style bearer format": the header's form only. Our
        // keys are opaque, so the document names no bearerFormat a generator might read as JWT (decisions §14).
        assertThat(bearer.has("bearerFormat")).isFalse();
        assertThat(document.get("security").get(0).has("bearer")).isTrue();
    }

    @Test
    void theChangeVoucherHasOneShapePerType() {
        // A redemption is a union on `type`: each type's member has its change voucher's shape (ott's goes by SMS).
        List<JsonNode> shapes = new ArrayList<>();
        for (String member : List.of("OneVoucherRedemption", "ProviderCRedemption")) {
            shapes.add(resolve(schema(member).get("properties").get("change_voucher")));
        }
        assertThat(schema("OttRedemption").get("properties").has("change_voucher")).isFalse();
        JsonNode withAmount = shapes.stream().filter(s -> s.get("properties").has("amount")).findFirst().orElseThrow();
        JsonNode withReference = shapes.stream().filter(s -> s.get("properties").has("reference")).findFirst().orElseThrow();
        assertThat(texts(withAmount.get("required"))).containsExactlyInAnyOrder("pin", "serial_number", "status");
        assertThat(texts(withReference.get("required"))).containsExactlyInAnyOrder("pin", "serial_number", "reference");
        assertThat(withReference.get("properties").has("amount")).isFalse();
        for (JsonNode shape : shapes) {
            assertThat(shape.get("additionalProperties").booleanValue()).isFalse();
        }
    }

    @Test
    void theRedemptionSchemaFollowsTheSpecsTable() {
        List<String> members = new ArrayList<>();
        schema("Redemption").get("oneOf").forEach(m -> members.add(m.get("$ref").stringValue()));
        assertThat(members)
                .containsExactly("#/components/schemas/OneVoucherRedemption", "#/components/schemas/OttRedemption",
                        "#/components/schemas/ProviderCRedemption");
        JsonNode redemption = schema("OneVoucherRedemption");
        JsonNode properties = redemption.get("properties");
        assertThat(properties.get("id").get("pattern").stringValue()).isEqualTo("^rdm_[a-f0-9]{24}$");
        assertThat(texts(resolve(properties.get("status")).get("enum")))
                .containsExactlyInAnyOrder("draft", "reserved", "confirmed", "failed");
        assertThat(properties.get("type").get("const").stringValue()).isEqualTo("vouchers.one_voucher");
        assertThat(properties.get("version").get("minimum").intValue()).isEqualTo(1);
        assertThat(properties.get("currency").get("minLength").intValue()).isEqualTo(3);
        assertThat(properties.get("currency").get("maxLength").intValue()).isEqualTo(3);
        // Wire names are snake_case, as the API speaks.
        List<String> names = new ArrayList<>();
        properties.propertyNames().forEach(names::add);
        assertThat(names).contains("id", "status", "version", "type", "provider_reference", "amount", "reserved_amount",
                "redeemed_amount", "reversed_amount", "currency", "source", "redemption_options", "operations",
                "change_voucher", "last_error", "related_ids", "metadata", "external_reference", "created_at",
                "updated_at");
        assertThat(texts(redemption.get("required"))).contains("id", "type", "status", "version", "amount", "reversed_amount",
                "currency", "operations", "related_ids", "created_at", "updated_at");
        assertThat(resolve(properties.get("redemption_options")).get("type").stringValue()).isEqualTo("object");

        JsonNode operation = resolve(properties.get("operations").get("items"));
        assertThat(texts(resolve(operation.get("properties").get("status")).get("enum"))).contains("succeeded", "failed");
        assertThat(operation.get("properties").has("provider_reference")).isTrue();
        JsonNode error = resolve(properties.get("last_error"));
        assertThat(error.get("properties").has("error_code")).isTrue();
        assertThat(error.get("properties").has("message")).isTrue();
    }

    @Test
    void theCreateRequestStatesTheSpecsRules() {
        JsonNode create = operation("/collect/redemptions", "post");
        JsonNode union = resolve(create.get("requestBody").get("content").get("application/json").get("schema"));
        assertThat(union.get("discriminator").get("mapping").propertyNames())
                .containsExactlyInAnyOrder("vouchers.one_voucher", "vouchers.ott", "vouchers.provider_c");
        JsonNode body = schema("OttRedemptionRequest");
        JsonNode properties = body.get("properties");
        assertThat(texts(body.get("required"))).containsExactlyInAnyOrder("type", "source");
        assertThat(body.get("additionalProperties").booleanValue()).isFalse();
        assertThat(properties.get("type").get("const").stringValue()).isEqualTo("vouchers.ott");
        assertThat(properties.get("amount").get("type").stringValue()).isEqualTo("integer");
        assertThat(properties.get("amount").get("minimum").intValue()).isEqualTo(1);
        assertThat(properties.get("currency").get("minLength").intValue()).isEqualTo(3);
        assertThat(properties.get("currency").get("maxLength").intValue()).isEqualTo(3);
        assertThat(properties.has("related_ids")).isTrue();
        assertThat(properties.has("external_reference")).isTrue();
        assertThat(properties.has("redemption_options")).isTrue();
        assertThat(resolve(properties.get("metadata")).get("maxProperties").intValue()).isEqualTo(20);

        // Each source shape, with its own required fields and no others: each type's member names its own.
        assertThat(properties.get("source").get("$ref").stringValue()).isEqualTo("#/components/schemas/OttSource");
        JsonNode ott = schema("OttSource");
        assertThat(texts(ott.get("required"))).containsExactlyInAnyOrder("pin", "phone_number");
        assertThat(ott.get("additionalProperties").booleanValue()).isFalse();
        assertThat(schema("OneVoucherSource").get("properties").get("pin").get("pattern").stringValue())
                .isEqualTo("^[0-9]{16}$");
        assertThat(texts(schema("ProviderCSource").get("required"))).containsExactly("token");

        JsonNode idempotencyKey = null;
        for (JsonNode parameter : create.get("parameters")) {
            if (parameter.get("name").stringValue().equals("Idempotency-Key")) {
                idempotencyKey = parameter;
            }
        }
        assertThat(idempotencyKey).isNotNull();
        assertThat(idempotencyKey.get("in").stringValue()).isEqualTo("header");
        assertThat(idempotencyKey.get("schema").get("minLength").intValue()).isEqualTo(1);
        assertThat(idempotencyKey.get("schema").get("maxLength").intValue()).isEqualTo(200);
    }

    @Test
    void responsesAreTheRedemptionOrAProblem() {
        JsonNode responses = operation("/collect/redemptions", "post").get("responses");
        assertThat(resolve(responses.get("201").get("content").get("application/json").get("schema")))
                .isEqualTo(schema("Redemption"));
        for (String status : List.of("400", "401", "409")) {
            JsonNode problem = responses.get(status).get("content").get("application/problem+json").get("schema");
            assertThat(resolve(problem)).as(status).isEqualTo(schema("ProblemDetail"));
        }
        JsonNode retrieve = operation("/collect/redemptions/{id}", "get").get("responses");
        assertThat(resolve(retrieve.get("200").get("content").get("application/json").get("schema")))
                .isEqualTo(schema("Redemption"));
        assertThat(resolve(retrieve.get("404").get("content").get("application/problem+json").get("schema")))
                .isEqualTo(schema("ProblemDetail"));

        JsonNode list = resolve(operation("/collect/redemptions", "get").get("responses").get("200").get("content")
                .get("application/json").get("schema"));
        assertThat(resolve(list.get("properties").get("data").get("items"))).isEqualTo(schema("Redemption"));
        assertThat(list.get("properties").has("has_more")).isTrue();
        assertThat(list.get("properties").has("next_cursor")).isTrue();

        JsonNode problem = schema("ProblemDetail").get("properties");
        for (String member : List.of("type", "title", "status", "detail", "instance", "code", "request_id", "errors")) {
            assertThat(problem.has(member)).as(member).isTrue();
        }
    }

    @Test
    void theCallerIsNotARequestParameter() {
        // The caller comes from the Authorization header; it is no query parameter a client could send.
        for (JsonNode operation : List.of(operation("/collect/redemptions", "get"), operation("/collect/redemptions", "post"),
                operation("/collect/redemptions/{id}", "get"))) {
            JsonNode parameters = operation.get("parameters");
            if (parameters != null) {
                parameters.forEach(p -> assertThat(p.get("name").stringValue()).isNotEqualToIgnoringCase("caller"));
            }
        }
        assertThat(document.get("components").get("schemas").has("Caller")).isFalse();
    }

    @Test
    void theListDocumentsItsPaginationAndFilters() {
        List<String> names = new ArrayList<>();
        operation("/collect/redemptions", "get").get("parameters").forEach(p -> names.add(p.get("name").stringValue()));
        assertThat(names).contains("limit", "cursor", "status", "type", "external_reference", "created_at[gte]",
                "created_at[lt]");
    }

    @Test
    void swaggerUiIsServedAtDocs() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build()) {
            HttpResponse<String> page = client.send(HttpRequest.newBuilder(URI.create(base() + "/docs")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
            assertThat(page.body()).contains("swagger-ui");
            assertThat(page.uri().getPath()).endsWith("/index.html");
        }
        // The UI loads this service's document, not the petstore example it ships with.
        assertThat(anonymous().get("/swagger-ui/swagger-initializer.js").send().text())
                .contains("\"configUrl\" : \"/openapi.json/swagger-config\"");
        Api.Response config = anonymous().get("/openapi.json/swagger-config").send();
        assertThat(config.status()).isEqualTo(200);
        assertThat(config.json().get("url").stringValue()).isEqualTo("/openapi.json");
    }
}
