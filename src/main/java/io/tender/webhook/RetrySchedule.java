package io.tender.webhook;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/** When to try a failed delivery again (decisions §5), with jitter so that retries of many events spread out. */
final class RetrySchedule {

    private final List<Duration> pauses;
    private final double jitter;
    private final DoubleSupplier random;

    RetrySchedule(List<Duration> pauses, double jitter, DoubleSupplier random) {
        this.pauses = List.copyOf(pauses);
        this.jitter = jitter;
        this.random = random;
    }

    /** The pause after this many failed attempts in a row, or empty when the delivery should give up. */
    Optional<Duration> pauseAfter(int failures) {
        if (failures < 1 || failures > pauses.size()) {
            return Optional.empty();
        }
        Duration base = pauses.get(failures - 1);
        double factor = 1 + jitter * (2 * random.getAsDouble() - 1);
        return Optional.of(Duration.ofNanos(Math.round(base.toNanos() * factor)));
    }

    int attemptsAtMost() {
        return pauses.size() + 1;
    }
}
