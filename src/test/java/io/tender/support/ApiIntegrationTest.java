package io.tender.support;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;

/**
 * Base of most integration tests: the whole service on a random port, on its embedded PostgreSQL (one per test JVM,
 * shared by all test classes through Spring's context cache), called over real HTTP, in its default configuration.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
        "tender.bootstrap-keys=",
})
public abstract class ApiIntegrationTest extends IntegrationTestSupport {

    private static final Path DATA_DIR = temporaryDataDirectory("default");

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
    }
}
