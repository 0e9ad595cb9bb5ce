package io.tender.ratelimit;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code tender.rate-limits.*}: the token buckets of decisions §9, each refilled continuously at {@code per-second}
 * tokens a second ({@code per-minute} a minute for page visits and views) up to {@code burst}. Failed authentications and
 * balance lookups hold across instances (decisions §12: their buckets are in PostgreSQL, so every instance must have
 * the same settings); requests per key, page visits and page views hold per instance: N instances behind a load
 * balancer let through up to N times as much.
 *
 * @param failedAuthentications per client address: requests that present a credential (an API key, or the admin
 *                              token) that is not valid; once an instance has refused one, every request from that
 *                              address that presents a credential is refused there before it is looked up, until
 *                              the bucket has tokens again
 * @param balanceLookups        per API key: {@code POST /stored_value/lookup}
 * @param perKey                per API key: every request
 * @param pageVisits            per client address and page: payment page visits that open a payment session (decisions §7, §13),
 *                              so that a bot cannot open sessions without bound
 * @param pageViews             per client address: requests of public pages by an id that does not exist (a payment
 *                              page, the hosted checkout and its status; GET or POST), so that nobody can try ids fast
 *                              (decisions §12, §13); while an address is over it, every request of a public page from
 *                              it is refused before its id is looked up
 * @param pageViewsPerId        per client address and id: requests of a payment page or checkout that exists, its
 *                              status polls included (decisions §13), so that payers behind one address (a mobile
 *                              network's carrier-grade NAT) all reach a popular page while one client cannot hammer it
 */
@ConfigurationProperties("tender.rate-limits")
public record RateLimitSettings(@DefaultValue FailedAuthentications failedAuthentications,
                                @DefaultValue BalanceLookups balanceLookups,
                                @DefaultValue PerKey perKey,
                                @DefaultValue PageVisits pageVisits,
                                @DefaultValue PageViews pageViews,
                                @DefaultValue PageViewsPerId pageViewsPerId) {

    /** One token bucket: {@code tokens} every {@code period}, at most {@code burst} at once. */
    sealed interface Limit permits PerSecond, PerMinute {
        long tokens();

        long burst();

        default Duration period() {
            return Duration.ofSeconds(1);
        }
    }

    /** A bucket refilled {@code per-second}: its tokens are those. */
    sealed interface PerSecond extends Limit permits FailedAuthentications, BalanceLookups, PerKey {
        long perSecond();

        @Override
        default long tokens() {
            return perSecond();
        }
    }

    public record FailedAuthentications(@DefaultValue("10") long perSecond, @DefaultValue("20") long burst)
            implements PerSecond {
        public FailedAuthentications {
            check("failed-authentications", perSecond, burst);
        }
    }

    public record BalanceLookups(@DefaultValue("10") long perSecond, @DefaultValue("20") long burst) implements PerSecond {
        public BalanceLookups {
            check("balance-lookups", perSecond, burst);
        }
    }

    public record PerKey(@DefaultValue("1000") long perSecond, @DefaultValue("2000") long burst) implements PerSecond {
        public PerKey {
            check("per-key", perSecond, burst);
        }
    }

    /** A bucket refilled {@code per-minute}: its tokens are those, over a minute. */
    sealed interface PerMinute extends Limit permits PageVisits, PageViews, PageViewsPerId {
        long perMinute();

        @Override
        default long tokens() {
            return perMinute();
        }

        @Override
        default Duration period() {
            return Duration.ofMinutes(1);
        }
    }

    /**
     * Per client address and page. Payers share addresses (mobile networks' carrier-grade NAT): the default lets a crowd
     * of 60 behind one address open a page shared on social media at once, and one more a second, not a bot that opens
     * sessions without end.
     */
    public record PageVisits(@DefaultValue("60") long perMinute, @DefaultValue("60") long burst) implements PerMinute {
        public PageVisits {
            check("page-visits", perMinute, burst);
        }
    }

    /**
     * Only ids that do not exist count here (a mistyped or expired link now and then): the default lets nobody try more
     * than 2 ids a second, and does not touch the payers of pages that exist ({@link PageViewsPerId}).
     */
    public record PageViews(@DefaultValue("120") long perMinute, @DefaultValue("60") long burst) implements PerMinute {
        public PageViews {
            check("page-views", perMinute, burst);
        }
    }

    /**
     * A payer's visit takes a few requests, and a waiting page polls its status every 1.5 s (40 a minute): the default
     * lets a crowd behind one address open one page (a shared link) ten times a second, and lets one page of a
     * checkout be polled by many tabs, while a single client looping on one id is refused.
     */
    public record PageViewsPerId(@DefaultValue("600") long perMinute, @DefaultValue("300") long burst)
            implements PerMinute {
        public PageViewsPerId {
            check("page-views-per-id", perMinute, burst);
        }
    }

    private static void check(String name, long perSecond, long burst) {
        if (perSecond < 1) {
            throw new IllegalArgumentException("tender.rate-limits." + name
                    + (name.startsWith("page-") ? ".per-minute" : ".per-second") + " must be at least 1");
        }
        if (burst < 1) {
            throw new IllegalArgumentException("tender.rate-limits." + name + ".burst must be at least 1");
        }
    }
}
