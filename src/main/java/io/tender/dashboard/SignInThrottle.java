package io.tender.dashboard;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.Locale;

/**
 * The sign-in limits of decisions §11, as token buckets (Bucket4j) in this instance's memory: at most
 * {@code failedSignInsPerAccount} failed sign-ins per email in {@code accountWindow} (10 in 15 minutes) and
 * {@code failedSignInsPerAddress} per client address in {@code addressWindow} (20 a minute). Only failures take a
 * token; once either bucket is empty every attempt is refused, with the right password too, until it refills. The
 * window refills whole at its end (not a token at a time), so no more than the limit fail within one window.
 */
@Component
class SignInThrottle {

    private final Limit accounts;
    private final Limit addresses;

    SignInThrottle(DashboardSettings settings) {
        this.accounts = new Limit(settings.failedSignInsPerAccount(), settings.accountWindow());
        this.addresses = new Limit(settings.failedSignInsPerAddress(), settings.addressWindow());
    }

    boolean allows(String email, String address) {
        return accounts.hasRoom(account(email)) && addresses.hasRoom(address);
    }

    void failed(String email, String address) {
        accounts.take(account(email));
        addresses.take(address);
    }

    private static String account(String email) {
        return email.trim().toLowerCase(Locale.ROOT);
    }

    private static final class Limit {

        private final int failures;
        private final Duration window;
        // A bucket idle for a whole window is full again: forgetting it changes nothing. Bounded against floods.
        private final Cache<String, Bucket> buckets;

        Limit(int failures, Duration window) {
            this.failures = failures;
            this.window = window;
            this.buckets = Caffeine.newBuilder().expireAfterAccess(window).maximumSize(100_000).build();
        }

        boolean hasRoom(String key) {
            Bucket bucket = buckets.getIfPresent(key);
            return bucket == null || bucket.estimateAbilityToConsume(1).canBeConsumed();
        }

        void take(String key) {
            buckets.get(key, k -> Bucket.builder()
                    .addLimit(limit -> limit.capacity(failures).refillIntervally(failures, window)).build())
                    .tryConsume(1);
        }
    }
}
