package io.tender.support;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Base of the integration tests: the whole service on a random port, on its embedded PostgreSQL (one per test JVM,
 * shared by all test classes through Spring's context cache), called over real HTTP.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + ApiIntegrationTest.ADMIN_TOKEN,
        "tender.bootstrap-keys=",
        // Webhooks and the relay on a test clock: retries within a second, short timeout, quick polling.
        "tender.webhooks.retry-schedule=PT0.3S,PT0.3S,PT0.3S",
        "tender.webhooks.timeout=PT2S",
        "tender.webhooks.poll-interval=PT0.2S",
        "tender.events.poll-interval=PT0.2S",
})
public abstract class ApiIntegrationTest {

    public static final String ADMIN_TOKEN = "test-admin-token-0123456789";
    private static final Path DATA_DIR;

    static {
        try {
            DATA_DIR = Files.createTempDirectory("tender-it-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
    }

    @LocalServerPort
    protected int port;

    @Autowired
    protected JdbcClient jdbc;

    protected Merchants merchants;

    @BeforeEach
    void connect() {
        merchants = new Merchants("http://localhost:" + port, ADMIN_TOKEN);
    }

    protected String base() {
        return "http://localhost:" + port;
    }

    /** An unauthenticated client. */
    protected Api anonymous() {
        return new Api(base(), null);
    }
}
