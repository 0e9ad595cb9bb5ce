package io.tender.redemption;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.Instant;

/**
 * The janitor: every {@code interval}, takes unfinished redemptions no request is working on (draft, or with a
 * pending provider call, untouched for {@code min-age}; holds older than {@code reservation-ttl}) and finishes
 * them. Safe with several instances on one database: each redemption is taken by one instance at a time
 * ({@code FOR UPDATE SKIP LOCKED} plus a lease), and every write is conditional on the revision it read.
 */
@Component
class RedemptionRecovery {

    private static final Logger log = LoggerFactory.getLogger(RedemptionRecovery.class);

    private final Redemptions redemptions;
    private final RedemptionService service;
    private final Duration minAge;
    private final Duration giveUpAfter;
    private final Duration reservationTtl;
    private final Duration lease;

    RedemptionRecovery(Redemptions redemptions, RedemptionService service,
                       @Value("${tender.redemptions.recovery.min-age:PT30S}") Duration minAge,
                       @Value("${tender.redemptions.recovery.give-up-after:PT10M}") Duration giveUpAfter,
                       @Value("${tender.redemptions.reservation-ttl:PT30M}") Duration reservationTtl,
                       @Value("${tender.redemptions.lease:PT1M}") Duration lease) {
        this.redemptions = redemptions;
        this.service = service;
        this.minAge = minAge;
        this.giveUpAfter = giveUpAfter;
        this.reservationTtl = reservationTtl;
        this.lease = lease;
    }

    @Scheduled(initialDelayString = "${tender.redemptions.recovery.interval:PT10S}",
            fixedDelayString = "${tender.redemptions.recovery.interval:PT10S}")
    void run() {
        int recovered;
        do {
            recovered = runOnce();
        } while (recovered == 20);
    }

    /** One batch; returns how many redemptions it took. */
    int runOnce() {
        Instant now = Instant.now();
        var batch = redemptions.claimUnfinished(now.minus(minAge), now.minus(reservationTtl), lease, 20);
        for (Redemption redemption : batch) {
            try {
                service.recover(redemption, now.minus(giveUpAfter), now.minus(reservationTtl));
            } catch (RuntimeException e) {
                log.error("Recovery of {} failed; it will be tried again", redemption.id(), e);
            }
        }
        return batch.size();
    }
}
