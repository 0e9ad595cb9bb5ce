package io.tender.processor.live;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.tender.processor.PaymentProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Optional;

/** Builds the live processor adapter when the operator configured one. */
@Component
public class LiveProcessor {

    private static final Logger log = LoggerFactory.getLogger(LiveProcessor.class);

    private final PaymentProcessor processor;

    LiveProcessor(LiveProcessorSettings settings, JsonMapper json) {
        if (!StringUtils.hasText(settings.baseUrl())) {
            processor = null;
            return;
        }
        var resilience = settings.resilience();
        var factory = new JdkClientHttpRequestFactory(HttpClient.newBuilder()
                .connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build());
        factory.setReadTimeout(settings.readTimeout());
        var client = RestClient.builder().requestFactory(factory).baseUrl(settings.baseUrl());
        if (StringUtils.hasText(settings.apiKey())) {
            client.defaultHeader("Authorization", "Bearer " + settings.apiKey());
        }
        processor = new HttpPaymentProcessor(client.build(),
                CircuitBreaker.of("processor", CircuitBreakerConfig.custom()
                        .failureRateThreshold(resilience.failureRateThreshold())
                        .slidingWindowSize(resilience.slidingWindow())
                        .minimumNumberOfCalls(resilience.minimumCalls())
                        .waitDurationInOpenState(resilience.openDuration()).build()),
                Bulkhead.of("processor", BulkheadConfig.custom()
                        .maxConcurrentCalls(resilience.maxConcurrentCalls())
                        .maxWaitDuration(Duration.ZERO).build()),
                Retry.of("processor", RetryConfig.custom()
                        .maxAttempts(resilience.readAttempts())
                        .waitDuration(resilience.readRetryWait())
                        .retryExceptions(io.tender.provider.live.GuardedCalls.Unclear.class).build()),
                json);
        log.info("Live payment processor at {} (connect timeout {}, read timeout {})", settings.baseUrl(),
                settings.connectTimeout(), settings.readTimeout());
    }

    public Optional<PaymentProcessor> processor() {
        return Optional.ofNullable(processor);
    }
}
