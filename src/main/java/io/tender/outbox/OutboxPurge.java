package io.tender.outbox;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.time.ZoneOffset;

/**
 * Deletes events older than {@code tender.events.retention} that every relay channel has delivered, in batches; any
 * instance may run it. Their webhook deliveries and attempts go with them (foreign keys cascade), so the retention
 * must be longer than the webhook retry window (about three and a half days by default).
 */
@Component
record OutboxPurge(JdbcClient jdbc, EventSettings settings) implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(OutboxPurge.class);
    private static final int BATCH = 1000;

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(new FixedDelayTask(this::purge, settings.purgeInterval(), settings.purgeInterval()));
    }

    void purge() {
        int total = purgeWrittenBefore(Instant.now().minus(settings.retention()));
        if (total > 0) {
            log.info("Purged {} events older than {}", total, settings.retention());
        }
    }

    /** Deletes delivered events written before {@code cutoff}; returns how many. */
    int purgeWrittenBefore(Instant cutoff) {
        int total = 0;
        int batch;
        do {
            batch = jdbc.sql("""
                            delete from outbox where id in (
                                select o.id from outbox o
                                where o.created_at < ?
                                  and not exists (select 1 from outbox_relay r where r.event_id = o.id)
                                order by o.created_at
                                limit ?)""")
                    .params(cutoff.atOffset(ZoneOffset.UTC), BATCH)
                    .update();
            total += batch;
        } while (batch == BATCH);
        return total;
    }
}
