package io.tender.checkout;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * Limits the checkout's form posts per checkout session (decisions §9): a token bucket of {@code burst} posts that
 * refills one every {@code interval}. Per instance, like the API's other limits. Besides the 5 attempts a session
 * allows, this stops a script from hammering one session's page with card numbers.
 */
@Component
class AttemptLimiter {

    private final int burst;
    private final long intervalNanos;
    private final Cache<String, Bucket> buckets;

    AttemptLimiter(CheckoutSettings settings) {
        int burst = settings.attempts().burst();
        Duration interval = settings.attempts().interval();
        this.burst = burst;
        this.intervalNanos = interval.toNanos();
        this.buckets = Caffeine.newBuilder().expireAfterAccess(interval.multipliedBy(burst).plusMinutes(1))
                .maximumSize(100_000).build();
    }

    /** Takes a token for the session; empty when allowed, else the seconds to wait. */
    OptionalLong take(String checkoutSessionId) {
        Bucket bucket = buckets.get(checkoutSessionId, id -> new Bucket(burst, System.nanoTime()));
        synchronized (bucket) {
            long now = System.nanoTime();
            double refilled = (now - bucket.updated) / (double) intervalNanos;
            bucket.tokens = Math.min(burst, bucket.tokens + refilled);
            bucket.updated = now;
            if (bucket.tokens >= 1) {
                bucket.tokens -= 1;
                return OptionalLong.empty();
            }
            double wait = (1 - bucket.tokens) * intervalNanos / 1e9;
            return OptionalLong.of((long) Math.ceil(wait));
        }
    }

    private static final class Bucket {
        double tokens;
        long updated;

        Bucket(double tokens, long updated) {
            this.tokens = tokens;
            this.updated = updated;
        }
    }
}
