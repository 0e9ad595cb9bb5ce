package io.tender.support;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock the test sets and moves, in UTC; it starts at the real time. A test makes it the service's {@link Clock}
 * ({@code @Import(MovableClock.AsTheServicesClock.class)}, then {@code @Autowired MovableClock}) so that what the
 * service decides by time is decided when the test says, never by how long the test took.
 */
public final class MovableClock extends Clock {

    /** The service's clock, in a test context that imports this. */
    @TestConfiguration
    public static class AsTheServicesClock {
        @Bean
        @Primary
        MovableClock movableClock() {
            return new MovableClock();
        }
    }

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());

    public void set(Instant instant) {
        now.set(instant);
    }

    public void advance(Duration by) {
        now.updateAndGet(at -> at.plus(by));
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Instant instant() {
        return now.get();
    }
}
