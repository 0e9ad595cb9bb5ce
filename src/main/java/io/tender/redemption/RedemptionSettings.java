package io.tender.redemption;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code tender.redemptions.*}: the defaults live here and only here.
 *
 * @param lease          how long a redemption claimed by a request or the recovery job belongs to it: longer than a
 *                       provider call can take, so only a redemption whose instance died is taken up again
 * @param reservationTtl how long a hold (a reserved voucher) lasts before the recovery job releases it
 * @param recovery       the recovery job
 */
@ConfigurationProperties("tender.redemptions")
record RedemptionSettings(@DefaultValue("PT1M") Duration lease,
                          @DefaultValue("PT30M") Duration reservationTtl,
                          @DefaultValue Recovery recovery) {

    RedemptionSettings {
        if (!lease.isPositive() || !reservationTtl.isPositive()) {
            throw new IllegalArgumentException(
                    "tender.redemptions.lease and reservation-ttl must be positive durations");
        }
    }

    /**
     * @param interval    how often each instance's recovery job runs
     * @param minAge      how long a draft or a pending provider call stays untouched before the job finishes it
     * @param giveUpAfter how old a redemption with a provider call still pending may get before the job reverses it
     */
    record Recovery(@DefaultValue("PT10S") Duration interval, @DefaultValue("PT30S") Duration minAge,
                    @DefaultValue("PT10M") Duration giveUpAfter) {

        Recovery {
            if (!interval.isPositive() || minAge.isNegative() || giveUpAfter.isNegative()) {
                throw new IllegalArgumentException("tender.redemptions.recovery.interval must be positive, min-age "
                        + "and give-up-after not negative");
            }
        }
    }
}
