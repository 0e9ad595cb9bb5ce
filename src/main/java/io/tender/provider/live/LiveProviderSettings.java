package io.tender.provider.live;

import io.tender.provider.ProviderCapabilities.ChangeVoucherDelivery;
import io.tender.provider.RedemptionType;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Live-mode provider adapters ({@code tender.providers.live.*}). {@code base-url} and {@code api-key} serve every
 * type (each type under {@code <base-url>/<provider>}, for example {@code /one_voucher}); a type's own group
 * ({@code one-voucher}, {@code ott}, {@code provider-c}) overrides them and sets its capabilities. A type without
 * any base URL has no live adapter: live requests for it answer 503.
 */
@ConfigurationProperties("tender.providers.live")
public record LiveProviderSettings(String baseUrl, String apiKey,
                                   @DefaultValue("2s") Duration connectTimeout,
                                   @DefaultValue("10s") Duration readTimeout,
                                   @DefaultValue Resilience resilience,
                                   @DefaultValue TypeSettings oneVoucher,
                                   @DefaultValue TypeSettings ott,
                                   @DefaultValue TypeSettings providerC) {

    /** One type's adapter. Unset values fall back to the shared ones and the type's defaults. */
    public record TypeSettings(String baseUrl, String apiKey, Duration connectTimeout, Duration readTimeout,
                               @DefaultValue("false") boolean hold, Boolean lookup,
                               @DefaultValue("true") boolean reverse, @DefaultValue("ZAR") String currency,
                               ChangeVoucherDelivery changeVoucher) {

        /** A type with no group of its own: every value from the shared settings and the type's defaults. */
        public static final TypeSettings UNSET = new TypeSettings(null, null, null, null, false, null, true, "ZAR",
                null);
    }

    /**
     * Per provider: a circuit breaker that opens at {@code failure-rate-threshold} percent failures over the last
     * {@code sliding-window} calls and stays open for {@code open-duration}; a bulkhead of {@code max-concurrent-calls};
     * up to {@code read-attempts} tries of the calls that are safe to repeat (status and lookup).
     */
    public record Resilience(@DefaultValue("50") float failureRateThreshold,
                             @DefaultValue("20") int slidingWindow,
                             @DefaultValue("10") int minimumCalls,
                             @DefaultValue("30s") Duration openDuration,
                             @DefaultValue("64") int maxConcurrentCalls,
                             @DefaultValue("3") int readAttempts,
                             @DefaultValue("200ms") Duration readRetryWait) {
    }

    public TypeSettings of(RedemptionType type) {
        return switch (type) {
            case ONE_VOUCHER -> oneVoucher;
            case OTT -> ott;
            case PROVIDER_C -> providerC;
        };
    }
}
