package io.tender.support;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;

/**
 * Base of most integration tests: the whole service on a random port, on its embedded PostgreSQL (one per test JVM,
 * shared by all test classes through Spring's context cache), called over real HTTP, in its default configuration
 * but for quick webhook timings and test-mode webhooks to loopback (the developer's-laptop setting).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
        // Several contexts and processes run at once: none may take the default management port.
        "management.server.port=0",
        "tender.bootstrap-keys=",
        // Webhooks and the relay on a test clock: retries within a second, short timeout, quick polling.
        "tender.webhooks.retry-schedule=PT0.3S,PT0.3S,PT0.3S",
        "tender.webhooks.timeout=PT2S",
        "tender.webhooks.poll-interval=PT0.2S",
        // Test-mode receivers on 127.0.0.1, as on a developer's laptop (WebhookAddressRuleIT runs without it).
        "tender.webhooks.allow-private-targets=true",
        "tender.events.poll-interval=PT0.2S",
        // Many tests send bad keys from 127.0.0.1; the §9 limit on failed authentications is proven in RateLimitsIT.
        "tender.rate-limits.failed-authentications.per-second=1000000",
        "tender.rate-limits.failed-authentications.burst=1000000",
        // Payment page visits come from 127.0.0.1 too; their limit is proven in RateLimitsTest and RateLimitsIT.
        "tender.rate-limits.page-visits.burst=1000000",
        // Every test opens public pages from 127.0.0.1; their limits (per address, per address and id) are proven in
        // RateLimitsIT.
        "tender.rate-limits.page-views.per-minute=1000000",
        "tender.rate-limits.page-views.burst=1000000",
        "tender.rate-limits.page-views-per-id.per-minute=1000000",
        "tender.rate-limits.page-views-per-id.burst=1000000",
})
public abstract class ApiIntegrationTest extends IntegrationTestSupport {

    private static final Path DATA_DIR = temporaryDataDirectory("default");

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
    }
}
