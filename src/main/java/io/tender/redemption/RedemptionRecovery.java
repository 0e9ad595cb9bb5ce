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
record RedemptionRecovery(Redemptions redemptions, RedemptionService service, RedemptionSettings settings)
        implements Recoverable<Redemption> {

    @Override
    public String name() {
        return "redemptions";
    }

    @Override
    public Duration interval() {
        return settings.recovery().interval();
    }

    @Override
    public List<Redemption> claim(Instant now, int limit) {
        return redemptions.claimUnfinished(now.minus(settings.recovery().minAge()), now.minus(settings.reservationTtl()),
                settings.lease(), limit);
    }

    @Override
    public void recover(Redemption redemption, Instant now) {
        service.recover(redemption, now.minus(settings.recovery().giveUpAfter()), now.minus(settings.reservationTtl()));
    }

    @Override
    public String id(Redemption redemption) {
        return redemption.id();
    }
}
