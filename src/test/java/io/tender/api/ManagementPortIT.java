package io.tender.api;

import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;

import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Decisions §9: {@code /actuator/*} answers only on the management port, which listens on 127.0.0.1 alone by
 * default; on the API port those paths are unknown paths like any other (404 problem+json).
 */
class ManagementPortIT extends ApiIntegrationTest {

    private static final String[] PATHS = {"/actuator/health", "/actuator/health/readiness", "/actuator/prometheus",
            "/actuator/metrics", "/actuator/metrics/http.server.requests"};

    @Test
    void actuatorIsNotFoundOnTheApiPortAndServedOnTheManagementPort() {
        assertThat(managementPort).isNotEqualTo(port);
        for (String path : PATHS) {
            assertProblem(anonymous().get(path).send(), 404, "resource_not_found");
            // Not even a merchant's key reaches it there.
            assertProblem(merchants.create().test().get(path).send(), 404, "resource_not_found");
            var served = management().get(path).send();
            assertThat(served.status()).as(path + ": " + served).isEqualTo(200);
        }
        assertThat(management().get("/actuator/prometheus").send().text()).contains("http_server_requests_seconds");
    }

    @Test
    void theManagementPortListensOnLoopback127001Only() throws IOException {
        // 127.0.0.2 is this machine too (all of 127/8 is loopback): the API port, bound to every address, answers
        // there; the management port, bound to 127.0.0.1 alone, does not.
        try (Socket api = new Socket()) {
            api.connect(new InetSocketAddress("127.0.0.2", port), 2000);
            assertThat(api.isConnected()).isTrue();
        }
        assertThatThrownBy(() -> {
            try (Socket management = new Socket()) {
                management.connect(new InetSocketAddress("127.0.0.2", managementPort), 2000);
            }
        }).isInstanceOf(ConnectException.class);
    }
}
