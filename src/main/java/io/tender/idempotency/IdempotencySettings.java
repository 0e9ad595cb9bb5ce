package io.tender.idempotency;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code tender.idempotency.*}.
 *
 * @param purgeInterval how often each instance deletes completed idempotency keys older than 24 hours
 */
@ConfigurationProperties("tender.idempotency")
record IdempotencySettings(@DefaultValue("PT10M") Duration purgeInterval) {

    IdempotencySettings {
        if (!purgeInterval.isPositive()) {
            throw new IllegalArgumentException("tender.idempotency.purge-interval must be a positive duration");
        }
    }
}
