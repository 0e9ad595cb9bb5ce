package io.tender.secrets;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code tender.secrets.*}: the re-sealing job of a master key rotation.
 *
 * @param resealBatchSize values re-sealed per transaction
 * @param resealDelay     how long after start the job first runs
 * @param resealInterval  how often it runs after that, until nothing is left under the previous master key
 */
@ConfigurationProperties("tender.secrets")
record SecretSettings(@DefaultValue("500") int resealBatchSize,
                      @DefaultValue("PT10S") Duration resealDelay,
                      @DefaultValue("PT1M") Duration resealInterval) {

    SecretSettings {
        if (resealBatchSize < 1 || resealDelay.isNegative() || !resealInterval.isPositive()) {
            throw new IllegalArgumentException("tender.secrets.reseal-batch-size must be at least 1, reseal-delay not "
                    + "negative and reseal-interval positive");
        }
    }
}
