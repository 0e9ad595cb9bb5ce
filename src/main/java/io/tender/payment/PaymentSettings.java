package io.tender.payment;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code tender.payments.*}: the defaults live here and only here. Refunds of payments go by the same lease and
 * recovery job settings.
 *
 * @param lease            how long a payment claimed by a request or the recovery job belongs to it: longer than a
 *                         processor call can take, so only a payment whose instance died is taken up again
 * @param authorizationTtl how long a manual-capture authorization lasts before the recovery job releases it
 * @param recovery         the recovery job
 */
@ConfigurationProperties("tender.payments")
public record PaymentSettings(@DefaultValue("PT1M") Duration lease,
                       @DefaultValue("P7D") Duration authorizationTtl,
                       @DefaultValue Recovery recovery) {

    public PaymentSettings {
        if (!lease.isPositive() || !authorizationTtl.isPositive()) {
            throw new IllegalArgumentException(
                    "tender.payments.lease and authorization-ttl must be positive durations");
        }
    }

    /**
     * @param interval how often each instance's recovery job runs
     * @param minAge   how long a pending processor call stays untouched before the job finishes it (the request
     *                 that made it may still be waiting for the answer)
     */
    public record Recovery(@DefaultValue("PT10S") Duration interval, @DefaultValue("PT30S") Duration minAge) {

        public Recovery {
            if (!interval.isPositive() || minAge.isNegative()) {
                throw new IllegalArgumentException("tender.payments.recovery.interval must be positive and min-age "
                        + "not negative");
            }
        }
    }
}
