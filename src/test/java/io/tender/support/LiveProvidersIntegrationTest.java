package io.tender.support;

import com.github.tomakehurst.wiremock.WireMockServer;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

/**
 * A second application context for provider faults, holds and recovery: live mode talks to a WireMock server
 * (one_voucher and ott) or to a port where nothing listens (provider_c); test mode's ott and provider_c sandbox
 * providers have holds; the recovery job runs every 200 ms on anything untouched for a second. Short timeouts, and
 * the live payment processor is the same WireMock server under {@code /processor}, and the payments' recovery job
 * runs as often; a circuit breaker that never opens here (its behaviour is tested on the adapter itself).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
        // Several contexts and processes run at once: none may take the default management port.
        "management.server.port=0",
        "tender.bootstrap-keys=",
        "tender.providers.live.read-timeout=1500ms",
        "tender.providers.live.connect-timeout=500ms",
        "tender.providers.live.api-key=provider-secret",
        "tender.providers.live.provider-c.base-url=http://127.0.0.1:9",
        "tender.providers.live.resilience.minimum-calls=1000",
        "tender.providers.live.resilience.sliding-window=1000",
        "tender.providers.live.resilience.read-attempts=2",
        "tender.providers.live.resilience.read-retry-wait=50ms",
        "tender.providers.sandbox.hold-types=vouchers.ott,vouchers.provider_c",
        "tender.redemptions.recovery.interval=PT0.2S",
        "tender.redemptions.recovery.min-age=PT1S",
        "tender.redemptions.recovery.give-up-after=PT1H",
        "tender.redemptions.reservation-ttl=PT1H",
        // Many tests send bad keys from 127.0.0.1; the §9 limit on failed authentications is proven in RateLimitsIT.
        "tender.rate-limits.failed-authentications.per-second=1000000",
        "tender.rate-limits.failed-authentications.burst=1000000",
        // Every test opens public pages from 127.0.0.1; their limits (per address, per address and id) are proven in
        // RateLimitsIT.
        "tender.rate-limits.page-views.per-minute=1000000",
        "tender.rate-limits.page-views.burst=1000000",
        "tender.rate-limits.page-views-per-id.per-minute=1000000",
        "tender.rate-limits.page-views-per-id.burst=1000000",
        // Test-mode webhooks may go to receivers on 127.0.0.1 (the developer's-laptop setting; never live mode).
        "tender.webhooks.allow-private-targets=true",
        "tender.processor.live.read-timeout=1500ms",
        "tender.processor.live.connect-timeout=500ms",
        "tender.processor.live.resilience.minimum-calls=1000",
        "tender.processor.live.resilience.sliding-window=1000",
        "tender.processor.live.resilience.read-attempts=2",
        "tender.processor.live.resilience.read-retry-wait=50ms",
        "tender.payments.recovery.interval=PT0.2S",
        "tender.payments.recovery.min-age=PT1S",
})
public abstract class LiveProvidersIntegrationTest extends IntegrationTestSupport {

    protected static final WireMockServer PROVIDER = new WireMockServer(options().dynamicPort());
    private static final Path DATA_DIR = temporaryDataDirectory("live");

    static {
        PROVIDER.start();
        Runtime.getRuntime().addShutdownHook(new Thread(PROVIDER::stop));
    }

    @DynamicPropertySource
    static void liveProviders(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
        registry.add("tender.providers.live.base-url", PROVIDER::baseUrl);
        registry.add("tender.processor.live.base-url", () -> PROVIDER.baseUrl() + "/processor");
    }

    @BeforeEach
    void resetProvider() {
        PROVIDER.resetAll();
    }
}
