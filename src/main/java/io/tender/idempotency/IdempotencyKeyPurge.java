package io.tender.idempotency;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import java.time.Duration;

/** Deletes completed keys older than 24 hours, in batches; any instance may run it, deletes are idempotent. */
@Component
class IdempotencyKeyPurge implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyKeyPurge.class);

    private final IdempotencyKeys keys;
    private final Duration interval;

    IdempotencyKeyPurge(IdempotencyKeys keys, IdempotencySettings settings) {
        this.keys = keys;
        this.interval = settings.purgeInterval();
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(new FixedDelayTask(this::purge, interval, interval));
    }

    void purge() {
        int total = 0;
        int batch;
        do {
            batch = keys.purgeExpired(1000);
            total += batch;
        } while (batch == 1000);
        if (total > 0) {
            log.info("Purged {} expired idempotency keys", total);
        }
    }
}
