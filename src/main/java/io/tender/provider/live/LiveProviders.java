package io.tender.provider.live;

import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedBulkheadMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedRetryMetrics;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.tender.provider.ProviderCapabilities;
import io.tender.provider.ProviderCapabilities.ChangeVoucherDelivery;
import io.tender.provider.RedemptionType;
import io.tender.provider.VoucherProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/** Builds the live adapters the operator configured, each with its own circuit breaker, bulkhead and read retry. */
@Component
public class LiveProviders {

    private static final Logger log = LoggerFactory.getLogger(LiveProviders.class);

    private final Map<RedemptionType, VoucherProvider> adapters = new EnumMap<>(RedemptionType.class);

    LiveProviders(LiveProviderSettings settings, JsonMapper json, MeterRegistry meters) {
        var resilience = settings.resilience();
        var breakers = CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
                .failureRateThreshold(resilience.failureRateThreshold())
                .slidingWindowSize(resilience.slidingWindow())
                .minimumNumberOfCalls(resilience.minimumCalls())
                .waitDurationInOpenState(resilience.openDuration())
                .build());
        var bulkheads = BulkheadRegistry.of(BulkheadConfig.custom()
                .maxConcurrentCalls(resilience.maxConcurrentCalls())
                .maxWaitDuration(Duration.ZERO)
                .build());
        var retries = RetryRegistry.of(RetryConfig.custom()
                .maxAttempts(resilience.readAttempts())
                .waitDuration(resilience.readRetryWait())
                .retryExceptions(GuardedCalls.Unclear.class)
                .build());
        TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(breakers).bindTo(meters);
        TaggedBulkheadMetrics.ofBulkheadRegistry(bulkheads).bindTo(meters);
        TaggedRetryMetrics.ofRetryRegistry(retries).bindTo(meters);

        for (RedemptionType type : RedemptionType.values()) {
            var own = settings.of(type);
            String baseUrl = StringUtils.hasText(own.baseUrl()) ? own.baseUrl()
                    : StringUtils.hasText(settings.baseUrl()) ? settings.baseUrl() + "/" + type.providerPrefix() : null;
            if (baseUrl == null) {
                continue;
            }
            String apiKey = StringUtils.hasText(own.apiKey()) ? own.apiKey() : settings.apiKey();
            Duration connectTimeout = own.connectTimeout() != null ? own.connectTimeout() : settings.connectTimeout();
            Duration readTimeout = own.readTimeout() != null ? own.readTimeout() : settings.readTimeout();
            var factory = new JdkClientHttpRequestFactory(HttpClient.newBuilder()
                    .connectTimeout(connectTimeout)
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .build());
            factory.setReadTimeout(readTimeout);
            var client = RestClient.builder().requestFactory(factory).baseUrl(baseUrl);
            if (StringUtils.hasText(apiKey)) {
                client.defaultHeader("Authorization", "Bearer " + apiKey);
            }
            String name = type.providerPrefix();
            var capabilities = new ProviderCapabilities(type.providerPrefix(), "Live provider at " + baseUrl,
                    own.currency(), own.hold(), true, own.lookup() != null ? own.lookup() : type != RedemptionType.ONE_VOUCHER,
                    own.reverse(), own.changeVoucher() != null ? own.changeVoucher()
                    : type == RedemptionType.OTT ? ChangeVoucherDelivery.SMS : ChangeVoucherDelivery.INLINE);
            adapters.put(type, new HttpVoucherProvider(type, capabilities, client.build(),
                    breakers.circuitBreaker(name), bulkheads.bulkhead(name), retries.retry(name), json));
            log.info("Live provider for {} at {} (hold: {}, connect timeout {}, read timeout {})",
                    type.wire(), baseUrl, own.hold(), connectTimeout, readTimeout);
        }
    }

    public Optional<VoucherProvider> of(RedemptionType type) {
        return Optional.ofNullable(adapters.get(type));
    }

    public java.util.List<VoucherProvider> all() {
        return java.util.List.copyOf(adapters.values());
    }
}
