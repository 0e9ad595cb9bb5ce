package io.tender.redemption;

import io.tender.settlement.Recoverable;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The redemptions' share of the settlement kernel's {@link io.tender.settlement.Janitor}: every {@code interval}, it
 * takes unfinished redemptions no request is working on (draft, or with a provider call unknown or unsent, untouched
 * for {@code min-age}; holds older than {@code reservation-ttl}) and finishes them ({@link RedemptionService#recover}).
 */
@Component
class RedemptionRecovery implements Recoverable<Redemption> {

    private final Redemptions redemptions;
    private final RedemptionService service;
    private final Duration minAge;
    private final Duration giveUpAfter;
    private final Duration reservationTtl;
    private final Duration lease;
    private final Duration interval;

    RedemptionRecovery(Redemptions redemptions, RedemptionService service, RedemptionSettings settings) {
        this.redemptions = redemptions;
        this.service = service;
        this.minAge = settings.recovery().minAge();
        this.giveUpAfter = settings.recovery().giveUpAfter();
        this.reservationTtl = settings.reservationTtl();
        this.lease = settings.lease();
        this.interval = settings.recovery().interval();
    }

    @Override
    public String name() {
        return "redemptions";
    }

    @Override
    public Duration interval() {
        return interval;
    }

    @Override
    public List<Redemption> claim(Instant now, int limit) {
        return redemptions.claimUnfinished(now.minus(minAge), now.minus(reservationTtl), lease, limit);
    }

    @Override
    public void recover(Redemption redemption, Instant now) {
        service.recover(redemption, now.minus(giveUpAfter), now.minus(reservationTtl));
    }

    @Override
    public String id(Redemption redemption) {
        return redemption.id();
    }
}
