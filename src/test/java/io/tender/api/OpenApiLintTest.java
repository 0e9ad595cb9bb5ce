package io.tender.api;

import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lints docs/openapi.json (which OpenApiCopyIT keeps equal to /openapi.json): swagger-parser, the reference parser
 * that openapi-generator reads documents with, must report nothing; and the rules an external contract run found
 * broken hold for every operation and schema.
 */
class OpenApiLintTest {

    private static JsonNode document;
    private static String text;

    @BeforeAll
    static void read() throws Exception {
        text = Files.readString(OpenApiCopyIT.COMMITTED);
        document = JsonMapper.builder().build().readTree(text);
    }

    @Test
    void theReferenceParserReportsNothing() {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        options.setValidateInternalRefs(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(text, null, options);
        assertThat(result.getMessages()).isEmpty();
        assertThat(result.getOpenAPI().getPaths()).isNotEmpty();
    }

    @Test
    void everyOperationHasAUniqueMeaningfulOperationId() {
        Set<String> ids = new HashSet<>();
        operations().forEach((where, operation) -> {
            String id = operation.path("operationId").stringValue("");
            assertThat(id).as(where).matches("^[a-z]+[A-Z][A-Za-z]+$");
            assertThat(ids.add(id)).as("duplicate operationId " + id).isTrue();
        });
    }

    @Test
    void everyOperationDeclaresWhatItCanAnswer() {
        operations().forEach((where, operation) -> {
            JsonNode responses = operation.get("responses");
            // Every operation of the published API needs a key (none of them is anonymous).
            assertThat(responses.has("401")).as(where + " 401").isTrue();
            assertThat(responses.has("429")).as(where + " 429").isTrue();
            assertThat(responses.has("500")).as(where + " 500").isTrue();
            boolean validates = operation.has("requestBody") || parameters(operation).stream()
                    .anyMatch(p -> !p.get("in").stringValue().equals("path"));
            if (validates) {
                assertThat(responses.has("400")).as(where + " 400").isTrue();
            }
            if (where.contains("{")) {
                assertThat(responses.has("404")).as(where + " 404").isTrue();
            }
            if (parameters(operation).stream().anyMatch(p -> p.get("name").stringValue().equals("Idempotency-Key"))) {
                assertThat(responses.has("409")).as(where + " 409").isTrue();
            }
            responses.properties().forEach(response -> {
                if (response.getKey().startsWith("4") || response.getKey().startsWith("5")) {
                    assertThat(response.getValue().path("content").has("application/problem+json"))
                            .as(where + " " + response.getKey()).isTrue();
                }
            });
        });
        // Only the redemption types may be read with a public key.
        operations().forEach((where, operation) -> assertThat(operation.get("responses").has("403"))
                .as(where + " 403").isEqualTo(!where.equals("get /collect/redemptions/types")));
    }

    @Test
    void everyPostAndPatchTakesAnIdempotencyKey() {
        operations().forEach((where, operation) -> {
            if (where.startsWith("post ") || where.startsWith("patch ")) {
                assertThat(parameters(operation)).as(where)
                        .anyMatch(p -> p.get("name").stringValue().equals("Idempotency-Key"));
            }
        });
    }

    @Test
    void schemasSayWhatTheyMean() {
        List<String> problems = new ArrayList<>();
        lintSchemas(document, "", problems);
        assertThat(problems).isEmpty();
        // No Jackson tree type leaks into the document as a schema.
        assertThat(document.get("components").get("schemas").has("JsonNode")).isFalse();
    }

    /** Keywords on the wrong type are ignored by validators: a limit that limits nothing. */
    private static void lintSchemas(JsonNode node, String where, List<String> problems) {
        if (node.isObject()) {
            if (node.has("$ref") && (node.has("type") || node.has("nullable"))) {
                problems.add(where + ": type beside $ref (use oneOf with {type: null})");
            }
            if (node.has("nullable")) {
                problems.add(where + ": nullable is not OpenAPI 3.1 (use type [..., \"null\"])");
            }
            Set<String> types = types(node);
            if (!types.isEmpty()) {
                for (String keyword : List.of("maxLength", "minLength", "pattern")) {
                    if (node.has(keyword) && !types.contains("string")) {
                        problems.add(where + ": " + keyword + " on " + types);
                    }
                }
                for (String keyword : List.of("maxItems", "minItems", "items")) {
                    if (node.has(keyword) && !types.contains("array")) {
                        problems.add(where + ": " + keyword + " on " + types);
                    }
                }
            }
            if (where.endsWith("/properties/next_cursor") || where.endsWith("/properties/prev_cursor")) {
                if (!types.contains("null")) {
                    problems.add(where + ": a cursor is null on the last page");
                }
            }
            node.properties().forEach(child -> lintSchemas(child.getValue(), where + "/" + child.getKey(), problems));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                lintSchemas(node.get(i), where + "/" + i, problems);
            }
        }
    }

    private static Set<String> types(JsonNode schema) {
        JsonNode type = schema.get("type");
        Set<String> types = new HashSet<>();
        if (type != null && type.isString()) {
            types.add(type.stringValue());
        } else if (type != null && type.isArray()) {
            type.forEach(t -> types.add(t.stringValue()));
        }
        return types;
    }

    private static Map<String, JsonNode> operations() {
        Map<String, JsonNode> operations = new java.util.TreeMap<>();
        document.get("paths").properties().forEach(path -> path.getValue().properties().forEach(method ->
                operations.put(method.getKey() + " " + path.getKey(), method.getValue())));
        assertThat(operations).isNotEmpty();
        return operations;
    }

    private static List<JsonNode> parameters(JsonNode operation) {
        List<JsonNode> parameters = new ArrayList<>();
        operation.path("parameters").forEach(parameters::add);
        return parameters;
    }
}
