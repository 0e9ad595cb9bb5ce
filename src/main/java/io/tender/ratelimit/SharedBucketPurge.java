package io.tender.ratelimit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import java.time.Duration;

/**
 * Deletes expired shared buckets every minute, in batches; any instance may run it (a row another instance is using
 * is skipped, and deleting a full bucket changes nothing: a new one starts full).
 */
@Component
class SharedBucketPurge implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(SharedBucketPurge.class);
    private static final Duration INTERVAL = Duration.ofMinutes(1);
    private static final int BATCH = 1000;

    private final SharedBuckets buckets;

    SharedBucketPurge(SharedBuckets buckets) {
        this.buckets = buckets;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(new FixedDelayTask(this::purge, INTERVAL, INTERVAL));
    }

    /** Returns how many buckets it deleted. */
    int purge() {
        int total = 0;
        int batch;
        do {
            batch = buckets.purgeExpired(BATCH);
            total += batch;
        } while (batch == BATCH);
        if (total > 0) {
            log.debug("Purged {} expired rate limit buckets", total);
        }
        return total;
    }
}
