package io.tender.ratelimit;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code tender.rate-limits.*}: the token buckets of decisions §9, each refilled continuously at {@code per-second}
 * tokens a second up to {@code burst}. They hold per instance: N instances behind a load balancer let through up to
 * N times as much.
 *
 * @param failedAuthentications per client address: requests that present a credential (an API key, or the admin
 *                              token) that is not valid; once the bucket is empty, every request from that address
 *                              that presents a credential is refused before it is looked up
 * @param balanceLookups        per API key: {@code POST /stored_value/lookup}
 * @param perKey                per API key: every request
 */
@ConfigurationProperties("tender.rate-limits")
public record RateLimitSettings(@DefaultValue FailedAuthentications failedAuthentications,
                                @DefaultValue BalanceLookups balanceLookups,
                                @DefaultValue PerKey perKey) {

    /** One token bucket: {@code perSecond} tokens a second, at most {@code burst} at once. */
    sealed interface Limit permits FailedAuthentications, BalanceLookups, PerKey {
        long perSecond();

        long burst();
    }

    public record FailedAuthentications(@DefaultValue("10") long perSecond, @DefaultValue("20") long burst)
            implements Limit {
        public FailedAuthentications {
            check("failed-authentications", perSecond, burst);
        }
    }

    public record BalanceLookups(@DefaultValue("10") long perSecond, @DefaultValue("20") long burst) implements Limit {
        public BalanceLookups {
            check("balance-lookups", perSecond, burst);
        }
    }

    public record PerKey(@DefaultValue("1000") long perSecond, @DefaultValue("2000") long burst) implements Limit {
        public PerKey {
            check("per-key", perSecond, burst);
        }
    }

    private static void check(String name, long perSecond, long burst) {
        if (perSecond < 1) {
            throw new IllegalArgumentException("tender.rate-limits." + name + ".per-second must be at least 1");
        }
        if (burst < 1) {
            throw new IllegalArgumentException("tender.rate-limits." + name + ".burst must be at least 1");
        }
    }
}
