package io.tender.settlement;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The one recovery job, for every {@link Recoverable} kind of aggregate: every kind's {@code interval}, take a batch
 * of its unfinished rows (leased, so no other instance takes them), finish each, and go on while batches come back
 * full. One row's failure never stops the others; it is tried again on a later run, once its lease ends. Safe with
 * several instances on one database ({@code SKIP LOCKED}, leases, conditional writes).
 */
@Component
public class Janitor implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(Janitor.class);

    /** Rows taken per batch. */
    public static final int BATCH = 20;

    private final List<Recoverable<?>> kinds;

    Janitor(List<Recoverable<?>> kinds) {
        this.kinds = List.copyOf(kinds);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        for (Recoverable<?> kind : kinds) {
            registrar.addFixedDelayTask(new FixedDelayTask(() -> run(kind), kind.interval(), kind.interval()));
        }
    }

    /** Runs batches of {@code kind} until one comes back short, then its own after-work. */
    public void run(Recoverable<?> kind) {
        Instant now = Instant.now();
        Set<String> seen = new HashSet<>();
        while (runOnce(kind, now, seen) == BATCH) {
            // a full batch of rows this run had not seen: there may be more
        }
        kind.afterRun(now);
    }

    /** One batch of {@code kind}; returns how many rows it took. */
    public <A> int runOnce(Recoverable<A> kind) {
        return runOnce(kind, Instant.now(), new HashSet<>());
    }

    /**
     * One batch; returns how many rows it took, or 0 once it takes a row this run has seen already (one it could not
     * finish and released): the run stops there rather than taking the same rows again and again.
     */
    private static <A> int runOnce(Recoverable<A> kind, Instant now, Set<String> seen) {
        List<A> batch = kind.claim(now, BATCH);
        boolean again = false;
        for (A row : batch) {
            again |= !seen.add(kind.id(row));
            try {
                kind.recover(row, now);
            } catch (RuntimeException e) {
                log.error("Recovery of {} failed; it will be tried again", kind.id(row), e);
            }
        }
        return again ? 0 : batch.size();
    }
}
