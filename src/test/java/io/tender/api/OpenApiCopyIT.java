package io.tender.api;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/openapi.json is the document the service serves: the build lints it and generates the test client from it
 * (pom.xml), so a change to the API must come with the new copy. This test writes what the service serves to
 * target/openapi.json; copy it over docs/openapi.json when the change is intended.
 */
class OpenApiCopyIT extends ApiIntegrationTest {

    static final Path COMMITTED = Path.of("docs/openapi.json");
    static final String COMMITTED_SERVERS = """
            [{"url": "http://localhost:8080", "description": "A Tender run locally by ./tender. A deployment serves \
            its own document, whose server is its TENDER_PUBLIC_BASE_URL."}]""";
    private static final JsonMapper SORTED = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();

    @Test
    void theCommittedCopyIsWhatTheServiceServes() throws Exception {
        Api.Response response = anonymous().get("/openapi.json").send();
        assertThat(response.status()).isEqualTo(200);
        ObjectNode served = (ObjectNode) response.json();
        // The served server entry is this run's public base URL (a random port here); the copy names the one
        // ./tender serves.
        assertThat(served.path("servers").path(0).path("url").stringValue()).isEqualTo(base());
        served.set("servers", Api.JSON.readTree(COMMITTED_SERVERS));
        // Keys sorted, so that the committed copy diffs cleanly from one change to the next.
        Files.writeString(Path.of("target/openapi.json"), SORTED.writerWithDefaultPrettyPrinter()
                .writeValueAsString(SORTED.convertValue(served, Map.class)) + "\n");

        JsonNode committed = Api.JSON.readTree(Files.readString(COMMITTED));
        assertThat(committed).as("docs/openapi.json differs from /openapi.json: copy target/openapi.json over it")
                .isEqualTo(served);
    }
}
