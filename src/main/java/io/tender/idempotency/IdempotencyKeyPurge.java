package io.tender.idempotency;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Deletes completed keys older than 24 hours, in batches; any instance may run it, deletes are idempotent. */
@Component
class IdempotencyKeyPurge {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyKeyPurge.class);

    private final IdempotencyKeys keys;

    IdempotencyKeyPurge(IdempotencyKeys keys) {
        this.keys = keys;
    }

    @Scheduled(initialDelayString = "${tender.idempotency.purge-interval:PT10M}",
            fixedDelayString = "${tender.idempotency.purge-interval:PT10M}")
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
