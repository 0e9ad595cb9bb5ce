package io.tender.support;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What every integration test has: the port of the running service, its database, and fresh merchants. The
 * subclasses that carry {@code @SpringBootTest} each choose one application context (and its data directory).
 */
public abstract class IntegrationTestSupport {

    /** At least 32 characters: start-up refuses a shorter one. */
    public static final String ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

    @LocalServerPort
    protected int port;

    /** Actuator's port (a random one in tests; 8081 by default), on 127.0.0.1 only. */
    @LocalManagementPort
    protected int managementPort;

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

    /** An unauthenticated client of the management port ({@code /actuator/*}). */
    protected Api management() {
        return new Api("http://127.0.0.1:" + managementPort, null);
    }

    /** An unauthenticated client. */
    protected Api anonymous() {
        return new Api(base(), null);
    }

    protected static Path temporaryDataDirectory(String name) {
        try {
            return Files.createTempDirectory("tender-it-" + name + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
