package io.tender.redemption;

import io.tender.settlement.RecoveryBatches;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The janitor: every {@code interval}, takes unfinished redemptions no request is working on (draft, or with a
 * pending provider call, untouched for {@code min-age}; holds older than {@code reservation-ttl}) and finishes
 * them. Safe with several instances on one database: each redemption is taken by one instance at a time
 * ({@code FOR UPDATE SKIP LOCKED} plus a lease), and every write is conditional on the revision it read.
 */
@Component
class RedemptionRecovery implements SchedulingConfigurer {

    private final Redemptions redemptions;
    private final RedemptionService service;
    private final Duration minAge;
    private final Duration giveUpAfter;
    private final Duration reservationTtl;
    private final Duration lease;
    private final Duration interval;

    RedemptionRecovery(Redemptions redemptions, RedemptionService service,
                       RedemptionSettings settings) {
        this.redemptions = redemptions;
        this.service = service;
        this.minAge = settings.recovery().minAge();
        this.giveUpAfter = settings.recovery().giveUpAfter();
        this.reservationTtl = settings.reservationTtl();
        this.lease = settings.lease();
        this.interval = settings.recovery().interval();
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(new FixedDelayTask(this::run, interval, interval));
    }

    void run() {
        Instant now = Instant.now();
        RecoveryBatches.drain(() -> claim(now), r -> recover(r, now), Redemption::id);
    }

    /** One batch; returns how many redemptions it took. */
    int runOnce() {
        Instant now = Instant.now();
        return RecoveryBatches.runOnce(() -> claim(now), r -> recover(r, now), Redemption::id);
    }

    private List<Redemption> claim(Instant now) {
        return redemptions.claimUnfinished(now.minus(minAge), now.minus(reservationTtl), lease, RecoveryBatches.SIZE);
    }

    private void recover(Redemption redemption, Instant now) {
        service.recover(redemption, now.minus(giveUpAfter), now.minus(reservationTtl));
    }
}
