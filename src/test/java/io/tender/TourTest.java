package io.tender;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link DocsToursIT}'s runner can fail: tours run in bash as that test runs them, against a small HTTP server that
 * answers as the service would, and a block whose command exits non-zero, a status or a result that differs from its
 * comment each fail the tour, while the same tour written as the server answers passes.
 */
class TourTest {

    @TempDir
    Path workDir;
    private HttpServer server;

    @BeforeEach
    void server() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        answer("/collect/redemptions", 201, "{\"id\":\"rdm_0193f1c2a4b5\",\"status\":\"confirmed\",\"version\":3}");
        answer("/billing/customers/cust-1001", 200, "{\"id\":\"bcus_0193f1c2a4b6\",\"balance\":7500}");
        answer("/collect/payment_sessions", 201, "{\"id\":\"ps_0193f1c2a4b7\",\"payment_outcome\":\"not_started\","
                + "\"session_url\":\"http://localhost:8080/checkout/ckt_1\"}");
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void answer(String path, int status, String body) {
        server.createContext(path, exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (var out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
    }

    private List<String> run(String markdown) throws IOException {
        List<String> paid = new ArrayList<>();
        try (TourShell shell = new TourShell(workDir, Map.of("KEY", "sk_test_x"))) {
            Tour.read("tour.md", markdown).run(shell, server.getAddress().getPort(), (pay, url) -> paid.add(url));
        }
        return paid;
    }

    private static String block(String text) {
        return "Try it:\n```sh\n" + text + "\n```\n";
    }

    private static final String REDEEM = """
            curl -s localhost:8080/collect/redemptions -H "Authorization: Bearer $KEY" -d '{}' | jq '{id, status}'""";

    @Test
    void aTourWrittenAsTheServiceAnswersPasses() throws IOException {
        List<String> paid = run(block(REDEEM + """

                # -> 201 {"id": "rdm_…", "status": "confirmed"}
                curl -s localhost:8080/billing/customers/cust-1001 -H "Authorization: Bearer $KEY" | jq .balance
                # -> 200 7500: the rest is owed
                SESSION=$(curl -s localhost:8080/collect/payment_sessions -d '{}')
                # -> 201 {"id":"ps_…",
                #         "payment_outcome":"not_started",…}
                SESSION_URL=$(echo "$SESSION" | jq -r .session_url)""")
                + "<!-- tour: pay SESSION_URL -->\n"
                + block("""
                for i in 1 2; do curl -s -o /dev/null localhost:8080/collect/redemptions -d '{}'; done; echo done
                # -> 201+ done""")
                + "<!-- not run: starts the service -->\n```sh\n./tender\n```\n");

        assertThat(paid).containsExactly("http://localhost:" + server.getAddress().getPort() + "/checkout/ckt_1");
    }

    @Test
    void aBlockThatExitsNonZeroFailsTheTour() {
        // The README's first block, run in a folder without ./tender, exits 127: issue 33 found the tour green.
        assertThatThrownBy(() -> run(block("""
                ./tender                    # run the service on :8080
                ./mvnw verify               # run every test""")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("exit 127: ./tender");
    }

    @Test
    void aCommandThatFailsBeforeTheLastOneOfAPieceFailsTheTour() {
        assertThatThrownBy(() -> run(block("""
                echo '{"status": "confirmed"' | jq .status > status.txt
                """ + REDEEM + """

                # -> 201 {"id": "rdm_…", "status": "confirmed"}""")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("exit").hasMessageContaining("jq .status");
    }

    @Test
    void aDocumentedResultThatDiffersFromWhatWasPrintedFailsTheTour() {
        assertThatThrownBy(() -> run(block(REDEEM + """

                # -> 201 {"id": "rdm_…", "status": "failed"}""")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("tour.md, line 4")
                .hasMessageContaining("$.status is \"confirmed\", not \"failed\"");
        assertThatThrownBy(() -> run(block("""
                curl -s localhost:8080/billing/customers/cust-1001 | jq .balance
                # -> 200 12500""")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("$ is 7500, not 12500");
    }

    @Test
    void aDocumentedAnswerKeptInAVariableIsComparedWithTheBody() {
        assertThatThrownBy(() -> run(block("""
                SESSION=$(curl -s localhost:8080/collect/payment_sessions -d '{}')
                # -> 201 {"id":"ps_…","payment_outcome":"paid",…}""")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("$.payment_outcome is \"not_started\"");
    }

    @Test
    void printedOutputThatItsCommentOnlyDescribesFailsTheTour() {
        assertThatThrownBy(() -> run(block(REDEEM + """

                # -> 201 the redemption, confirmed""")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("its comment shows no such value");
    }

    @Test
    void aStatusOtherThanTheDocumentedOneOrACallWithoutOneFailsTheTour() {
        assertThatThrownBy(() -> run(block(REDEEM + """

                # -> 200 {"id": "rdm_…", "status": "confirmed"}""")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("statuses [201] where 200 was promised");
        assertThatThrownBy(() -> run(block(REDEEM)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("statuses [201] where no call was promised");
    }
}
