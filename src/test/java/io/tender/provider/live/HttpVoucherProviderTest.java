package io.tender.provider.live;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tender.provider.ProviderOutcome;
import io.tender.provider.RedemptionType;
import io.tender.provider.VoucherProvider;
import io.tender.provider.VoucherSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The live adapter's resilience on its own: circuit breaker, bulkhead, which calls are retried, what "not sent" is. */
class HttpVoucherProviderTest {

    private static final String APPROVED = "{\"result\":\"approved\",\"amount\":100,\"currency\":\"ZAR\",\"reference\":{}}";
    private static final VoucherSource PIN = new VoucherSource.OneVoucherPin("1234567890121117");

    private final WireMockServer server = new WireMockServer(options().dynamicPort());
    /** Where the adapters' resilience4j metrics go: the bulkhead's free permits are read from here. */
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @BeforeEach
    void start() {
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    private VoucherProvider provider(String baseUrl, int window, int maxConcurrent) {
        var defaults = LiveProviderSettings.TypeSettings.UNSET;
        var settings = new LiveProviderSettings(baseUrl, "secret", Duration.ofMillis(500), Duration.ofSeconds(3),
                new LiveProviderSettings.Resilience(50, window, window, Duration.ofMinutes(5), maxConcurrent, 3,
                        Duration.ofMillis(10)),
                defaults, defaults, defaults);
        return new LiveProviders(settings, JsonMapper.builder().build(), meters)
                .of(RedemptionType.ONE_VOUCHER).orElseThrow();
    }

    private static VoucherProvider.Confirm confirm(String key) {
        return new VoucherProvider.Confirm(key, PIN, 100, "ZAR", null, null);
    }

    @Test
    void afterEnoughFailuresTheCircuitOpensAndCallsAreNotSentAtAll() {
        server.stubFor(post("/one_voucher/confirm").willReturn(aResponse().withStatus(500)));
        VoucherProvider provider = provider(server.baseUrl(), 4, 10);

        for (int i = 0; i < 4; i++) {
            assertThat(provider.confirm(confirm("k" + i))).isInstanceOf(ProviderOutcome.Unknown.class);
        }
        ProviderOutcome blocked = provider.confirm(confirm("k5"));

        assertThat(blocked).isInstanceOf(ProviderOutcome.Declined.class);
        assertThat(((ProviderOutcome.Declined) blocked).errorCode()).isEqualTo("one_voucher.transport_error");
        assertThat(((ProviderOutcome.Declined) blocked).message()).contains("circuit open");
        server.verify(4, postRequestedFor(urlEqualTo("/one_voucher/confirm")));
    }

    @Test
    void aStatusQueryDuringAnOpenCircuitIsUnknownNeverNotReceived() {
        server.stubFor(post("/one_voucher/confirm").willReturn(aResponse().withStatus(500)));
        VoucherProvider provider = provider(server.baseUrl(), 2, 10);
        provider.confirm(confirm("a"));
        provider.confirm(confirm("b"));

        assertThat(provider.status("a")).isInstanceOf(ProviderOutcome.Unknown.class);
    }

    @Test
    void theBulkheadRefusesCallsBeyondItsLimitWithoutSendingThem() throws Exception {
        // Long enough that the slow call still holds its permit when the second call comes, however loaded the machine.
        server.stubFor(post("/one_voucher/confirm").willReturn(okJson(APPROVED).withFixedDelay(2000)));
        VoucherProvider provider = provider(server.baseUrl(), 100, 1);
        assertThat(freePermits()).isEqualTo(1);

        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            var slow = CompletableFuture.supplyAsync(() -> provider.confirm(confirm("slow")), pool);
            // The slow call has taken the only permit (the bulkhead says so, not a guess at how long that takes).
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> freePermits() == 0);
            ProviderOutcome second = provider.confirm(confirm("second"));

            assertThat(second).isInstanceOf(ProviderOutcome.Declined.class);
            assertThat(((ProviderOutcome.Declined) second).message()).contains("too many calls");
            assertThat(slow.get()).isInstanceOf(ProviderOutcome.Approved.class);
        }
        server.verify(1, postRequestedFor(urlEqualTo("/one_voucher/confirm")));
        assertThat(freePermits()).as("the permit is given back").isEqualTo(1);
    }

    /** The one_voucher bulkhead's free permits, from its resilience4j gauge. */
    private double freePermits() {
        return meters.get("resilience4j.bulkhead.available.concurrent.calls").tag("name", "one_voucher").gauge().value();
    }

    @Test
    void moneyMovingCallsAreSentOnceEvenWhenTheAnswerIsLost() {
        server.stubFor(post("/one_voucher/confirm").willReturn(aResponse().withStatus(503)));
        VoucherProvider provider = provider(server.baseUrl(), 100, 10);

        assertThat(provider.confirm(confirm("once"))).isInstanceOf(ProviderOutcome.Unknown.class);
        server.verify(1, postRequestedFor(urlEqualTo("/one_voucher/confirm")));
    }

    @Test
    void statusQueriesAreRetriedUntilTheProviderAnswers() {
        server.stubFor(get(urlPathMatching("/one_voucher/operations/.*")).inScenario("s")
                .whenScenarioStateIs(Scenario.STARTED).willReturn(aResponse().withStatus(503)).willSetStateTo("up"));
        server.stubFor(get(urlPathMatching("/one_voucher/operations/.*")).inScenario("s")
                .whenScenarioStateIs("up").willReturn(okJson(APPROVED)));
        VoucherProvider provider = provider(server.baseUrl(), 100, 10);

        assertThat(provider.status("k")).isInstanceOf(ProviderOutcome.Approved.class);
        server.verify(2, getRequestedFor(urlPathMatching("/one_voucher/operations/.*")));
    }

    @Test
    void aProviderThatIsNotListeningMeansNothingWasSent() {
        VoucherProvider provider = provider("http://127.0.0.1:9", 100, 10);

        ProviderOutcome outcome = provider.confirm(confirm("nobody"));

        assertThat(outcome).isInstanceOf(ProviderOutcome.Declined.class);
        assertThat(((ProviderOutcome.Declined) outcome).message()).contains("nothing was sent");
        assertThat(provider.status("nobody")).isInstanceOf(ProviderOutcome.Unknown.class);
    }

    @Test
    void aDeclineIsTakenAsTheProvidersAnswer() {
        server.stubFor(post("/one_voucher/confirm").willReturn(aResponse().withStatus(422)
                .withBody("{\"result\":\"declined\",\"error_code\":\"BAD_REQUEST\",\"message\":\"Voucher has already been used\"}")));

        ProviderOutcome outcome = provider(server.baseUrl(), 100, 10).confirm(confirm("used"));

        assertThat(outcome).isEqualTo(new ProviderOutcome.Declined("BAD_REQUEST", "Voucher has already been used"));
    }
}
