package io.tender.ratelimit;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.time.Duration;

/**
 * Limits of a number of events per window that every instance shares (decisions §12, §13), for the modules that count
 * their own events: the dashboard's sign-in throttle counts failures with them, and records a refusal once per window
 * with one whose limit is 1. Each limit is a bucket per key among {@link SharedBuckets} (a row of
 * {@code rate_limit_buckets} named after the limit and the key): {@code count} tokens, all given back at once at the
 * end of each {@code window} (Bucket4j's intervally refill), so no more than {@code count} are taken in one window
 * however many instances take them.
 *
 * <p>A caller that must not let two concurrent requests both pass the last token takes it first and gives it back if
 * the event turns out not to count ({@link Window#giveBack}): looking first and taking after would let every request
 * in flight look at the same last token.
 */
@Component
public class SharedWindows {

    private final ProxyManager<String> buckets;

    @Autowired
    SharedWindows(SharedBuckets shared) {
        this(shared.buckets());
    }

    SharedWindows(ProxyManager<String> buckets) {
        this.buckets = buckets;
    }

    /** A limit of {@code count} per {@code window}; {@code name} keeps its buckets apart from every other limit's. */
    public Window window(String name, long count, Duration window) {
        if (count < 1 || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException(name + ": a window needs at least one token and a length");
        }
        return new Window(name, BucketConfiguration.builder()
                .addLimit(limit -> limit.capacity(count).refillIntervally(count, window))
                .build());
    }

    /**
     * The key a client address counts under: the address itself for IPv4, its /64 for IPv6 (one subscriber usually
     * holds a whole /64), as every limit per client address does.
     */
    public static String clientAddress(String remoteAddress) {
        return RateLimits.clientAddress(remoteAddress);
    }

    /** One limit: a bucket per key. */
    public final class Window {

        private final String name;
        private final BucketConfiguration configuration;

        private Window(String name, BucketConfiguration configuration) {
            this.name = name;
            this.configuration = configuration;
        }

        private Bucket bucket(String key) {
            return buckets.builder().build(name + ":" + key, () -> configuration);
        }

        /** Takes a token of the key's window: false, taking nothing, when the window has none left. */
        public boolean tryTake(String key) {
            return bucket(key).tryConsume(1);
        }

        /** Gives back a token taken by {@link #tryTake} for an event that did not count (never above the limit). */
        public void giveBack(String key) {
            bucket(key).addTokens(1);
        }
    }
}
