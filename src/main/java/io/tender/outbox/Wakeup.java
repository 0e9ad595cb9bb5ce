package io.tender.outbox;

import java.time.Duration;

/**
 * Lets a polling loop sleep until either its poll interval passes or somebody has new work for it, without losing a
 * wake-up that arrives between "found nothing" and "go to sleep": the loop remembers the generation it saw first.
 */
public final class Wakeup {

    private long generation;

    public synchronized void wake() {
        generation++;
        notifyAll();
    }

    public synchronized long generation() {
        return generation;
    }

    /** Waits until {@link #wake} was called after {@code seen} was read, or {@code max} has passed. */
    public synchronized void awaitAfter(long seen, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        long remaining;
        while (generation == seen && (remaining = deadline - System.nanoTime()) > 0) {
            wait(Math.max(1, remaining / 1_000_000));
        }
    }
}
