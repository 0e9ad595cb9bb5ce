package io.tender.subscription;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.List;

/**
 * {@code tender.series.*}: how subscriptions are charged (decisions §8). The defaults live here and only here.
 *
 * @param retryAfter the retries of a softly declined period, each counted from the period's first decline (whole
 *                   days: a retry is due at the start of its day in the subscription's zone)
 * @param scheduler  the job every instance runs
 */
@ConfigurationProperties("tender.series")
record SeriesSettings(@DefaultValue({"P1D", "P3D", "P5D"}) List<Duration> retryAfter,
                      @DefaultValue Scheduler scheduler) {

    SeriesSettings {
        retryAfter = List.copyOf(retryAfter);
        if (retryAfter.stream().anyMatch(d -> d.toDays() < 1 || !d.equals(Duration.ofDays(d.toDays())))) {
            throw new IllegalArgumentException("tender.series.retry-after must be whole days of at least one (P1D)");
        }
    }

    /** The retries as days after the first decline. */
    List<Integer> retryDays() {
        return retryAfter.stream().map(d -> (int) d.toDays()).toList();
    }

    /**
     * @param enabled     whether this instance charges due periods and sends notices (any number may)
     * @param interval    how long it waits after a run that found nothing more due
     * @param batch       periods claimed per transaction
     * @param concurrency processor calls in flight at once per instance
     */
    record Scheduler(@DefaultValue("true") boolean enabled, @DefaultValue("PT5S") Duration interval,
                     @DefaultValue("50") int batch, @DefaultValue("16") int concurrency) {

        Scheduler {
            if (!interval.isPositive() || batch < 1 || batch > 1000 || concurrency < 1 || concurrency > 256) {
                throw new IllegalArgumentException("tender.series.scheduler: interval must be positive, batch 1 to "
                        + "1000 and concurrency 1 to 256");
            }
        }
    }
}
