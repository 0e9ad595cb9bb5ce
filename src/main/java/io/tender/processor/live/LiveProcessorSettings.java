package io.tender.processor.live;

import io.tender.provider.live.LiveProviderSettings;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The live payment processor ({@code tender.processor.live.*}): without {@code base-url} there is none, and live
 * payment attempts answer 503. {@code resilience} has the voucher adapters' settings and defaults.
 */
@ConfigurationProperties("tender.processor.live")
public record LiveProcessorSettings(String baseUrl, String apiKey,
                                    @DefaultValue("2s") Duration connectTimeout,
                                    @DefaultValue("10s") Duration readTimeout,
                                    @DefaultValue @NestedConfigurationProperty
                                    LiveProviderSettings.Resilience resilience) {
}
