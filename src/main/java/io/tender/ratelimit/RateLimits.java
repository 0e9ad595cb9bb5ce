package io.tender.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.EstimationProbe;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rate limits of decisions §9 and §12, as token buckets (Bucket4j). A refusal is an {@link ApiException} 429
 * {@code too_many_requests} with {@code Retry-After} (whole seconds until the next token, at least 1) and the fields
 * of draft-ietf-httpapi-ratelimit-headers-09: {@code RateLimit-Policy: "per-key";q=2000;w=2} (q: the burst; w: the
 * seconds an empty bucket takes to fill) and {@code RateLimit: "per-key";r=0;t=1} (r: tokens left; t:
 * {@code Retry-After}).
 *
 * <p>Failed authentications and balance lookups are counted in buckets every instance shares ({@link SharedBuckets},
 * in PostgreSQL), so N instances do not give an attacker N bursts. Only a failed authentication or a balance lookup
 * costs a database transaction: the check every request that presents a credential passes before its lookup reads
 * this instance's memory alone, where an address stays refused from the moment this instance counted one of its
 * failures over the limit until the shared bucket is out of debt again. A failure counts even when it is refused (the
 * bucket goes into debt): the credential was looked up, and instances that have not yet seen the refusal each look up
 * one more before they refuse too; paying for those keeps the guesses of an address spread over any number of
 * instances at the limit's rate.
 *
 * <p>Requests per key, payment page visits and page views are counted in this instance's memory (a round trip on
 * every request would cost more than the limit saves), in caches that forget a bucket once it is full again (so
 * forgetting it changes nothing; a bucket in debt is kept until the debt is paid) and hold at most
 * {@value #MAX_BUCKETS} per limit, so a flood of addresses, keys or ids cannot grow memory without bound.
 *
 * <p>Public pages by id (decisions §12, §13) have two limits. Per client address, the ids that do not exist: a request
 * is refused before its id is looked up while its address is over that budget ({@link #refuseIfTryingPageIds}), and an
 * id found not to exist then costs a token ({@link #unknownPageId}), into debt if it must, so that requests sent at once
 * pay for every lookup they made. Per client address and id, the requests of a page that exists ({@link #pageView}):
 * payers behind one address reach a popular page, and a bucket is made only for an id that exists, so distinct
 * unknown ids cannot fill that cache.
 */
@Component
public class RateLimits {

    static final int MAX_BUCKETS = 100_000;
    static final String RETRY_AFTER = HttpHeaders.RETRY_AFTER;
    static final String POLICY = "RateLimit-Policy";
    static final String STATE = "RateLimit";

    private final SharedLimiter failedAuthentications;
    private final SharedLimiter balanceLookups;
    private final Limiter perKey;
    private final Limiter pageVisits;
    private final Limiter pageViews;
    private final Limiter pageViewsPerId;

    @Autowired
    RateLimits(RateLimitSettings settings, SharedBuckets shared) {
        this(settings, shared.buckets(), TimeMeter.SYSTEM_NANOTIME, Ticker.systemTicker());
    }

    /**
     * With the shared buckets of a test and its clocks: one for the buckets in memory, one for the caches (and for
     * how long an address or key stays refused here).
     */
    RateLimits(RateLimitSettings settings, ProxyManager<String> shared, TimeMeter time, Ticker ticker) {
        this.failedAuthentications = new SharedLimiter("failed-auth", settings.failedAuthentications(), shared, ticker,
                "Too many failed authentications from this client address. Retry after the time in Retry-After.");
        this.balanceLookups = new SharedLimiter("balance-lookup", settings.balanceLookups(), shared, ticker,
                "Too many balance lookups with this API key. Retry after the time in Retry-After.");
        this.perKey = new Limiter("per-key", settings.perKey(), time, ticker,
                "Too many requests with this API key. Retry after the time in Retry-After.");
        this.pageVisits = new Limiter("page-visit", settings.pageVisits(), time, ticker,
                "Too many visits of this payment page from this client address. Retry after the time in Retry-After.");
        this.pageViews = new Limiter("page-view", settings.pageViews(), time, ticker,
                "Too many requests for payment pages that do not exist from this client address. Retry after the time "
                        + "in Retry-After.");
        this.pageViewsPerId = new Limiter("page-view-per-id", settings.pageViewsPerId(), time, ticker,
                "Too many requests for this page from this client address. Retry after the time in Retry-After.");
    }

    /**
     * Refuses a request that presents a credential, before the credential is looked up, while this instance knows its
     * client address to be over its failed authentications ({@link #failedAuthentication} refused it). Reads memory
     * only and takes no token: only failures do.
     */
    public void refuseIfFailingAuthentication(HttpServletRequest request) {
        failedAuthentications.refuseIfRefused(clientAddress(request.getRemoteAddr()));
    }

    /**
     * Counts a credential that was presented and not valid against the request's client address, in the bucket all
     * instances share; throws the 429 to answer instead of the 401 when the address was over its limit.
     */
    public void failedAuthentication(HttpServletRequest request) {
        failedAuthentications.count(clientAddress(request.getRemoteAddr()));
    }

    /** Takes one request from the key's bucket, or refuses it. */
    public void request(String keyId) {
        perKey.take(keyId);
    }

    /** Takes one balance lookup from the key's bucket, which all instances share, or refuses it. */
    public void balanceLookup(String keyId) {
        balanceLookups.take(keyId);
    }

    /**
     * Takes one payment page visit (one payment session opened) of the page {@code pageId} from the bucket of the
     * client address and that page, or refuses it: payers behind one address (a carrier-grade NAT) share the page's
     * bucket only, not every page's (decisions §13).
     */
    public void pageVisit(HttpServletRequest request, String pageId) {
        pageVisits.take(clientAddress(request.getRemoteAddr()) + " " + pageId);
    }

    /**
     * Refuses a request of a public page by its id, before the id is looked up, while the client address is over its
     * budget of ids that do not exist (decisions §12, §13): a refusal says nothing about the id. Reads this instance's
     * memory only, takes no token and makes no bucket.
     */
    public void refuseIfTryingPageIds(HttpServletRequest request) {
        pageViews.refuseIfEmpty(clientAddress(request.getRemoteAddr()));
    }

    /**
     * Counts a public page id that was looked up and does not exist against the client address, into debt if the
     * bucket is empty (requests sent at once all passed {@link #refuseIfTryingPageIds}): never refuses, the lookup
     * was made.
     */
    public void unknownPageId(HttpServletRequest request) {
        pageViews.count(clientAddress(request.getRemoteAddr()));
    }

    /**
     * Takes one request of a public page that exists ({@code pageId}, as found) from the bucket of the client address
     * and that id, or refuses it (decisions §13).
     */
    public void pageView(HttpServletRequest request, String pageId) {
        pageViewsPerId.take(clientAddress(request.getRemoteAddr()) + " " + pageId);
    }

    /** The buckets this instance holds in memory for public pages: per address (unknown ids), per address and id. */
    PageBuckets pageBuckets() {
        return new PageBuckets(pageViews.held(), pageViewsPerId.held());
    }

    record PageBuckets(long perAddress, long perAddressAndId) {
    }

    /**
     * The bucket a client address counts against: the address itself for IPv4, its /64 for IPv6 (one subscriber
     * usually holds a whole /64, so counting single IPv6 addresses would let one client count as billions). The
     * address is the socket's peer unless the operator turned on Spring's forwarded-header handling.
     */
    static String clientAddress(String remoteAddress) {
        if (remoteAddress == null || remoteAddress.indexOf(':') < 0) {
            return remoteAddress == null ? "unknown" : remoteAddress;
        }
        try {
            // A literal address: no name lookup happens.
            byte[] bytes = InetAddress.getByName(remoteAddress).getAddress();
            if (bytes.length == 4) {
                return InetAddress.getByAddress(bytes).getHostAddress();
            }
            Arrays.fill(bytes, 8, 16, (byte) 0);
            return InetAddress.getByAddress(bytes).getHostAddress() + "/64";
        } catch (UnknownHostException e) {
            return remoteAddress;
        }
    }

    /** The fields of a limit's 429: its policy and its words. */
    private record Refusal(String name, long fillSeconds, String policy, String detail) {

        static Refusal of(String name, RateLimitSettings.Limit limit, String detail) {
            // The seconds an empty bucket takes to fill.
            long fillSeconds = Math.max(1, Math.ceilDiv(Math.ceilDiv(limit.burst() * limit.period().toNanos(),
                    limit.tokens()), 1_000_000_000L));
            return new Refusal(name, fillSeconds, "\"" + name + "\";q=" + limit.burst() + ";w=" + fillSeconds, detail);
        }

        ApiException refused(long nanosToWait) {
            long seconds = Math.max(1, Math.ceilDiv(nanosToWait, 1_000_000_000L));
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put(RETRY_AFTER, Long.toString(seconds));
            headers.put(POLICY, policy);
            headers.put(STATE, "\"" + name + "\";r=0;t=" + seconds);
            return new ApiException(ProblemCode.TOO_MANY_REQUESTS, 429, detail, List.of(), headers);
        }
    }

    private static BucketConfiguration configuration(RateLimitSettings.Limit limit) {
        return BucketConfiguration.builder()
                .addLimit(l -> l.capacity(limit.burst()).refillGreedy(limit.tokens(), limit.period()))
                .build();
    }

    /** One limit in this instance's memory: a bucket per client address or key. */
    private static final class Limiter {

        private final RateLimitSettings.Limit limit;
        private final TimeMeter time;
        private final Refusal refusal;
        private final Cache<String, Bucket> buckets;

        Limiter(String name, RateLimitSettings.Limit limit, TimeMeter time, Ticker ticker, String detail) {
            this.limit = limit;
            this.time = time;
            this.refusal = Refusal.of(name, limit, detail);
            this.buckets = Caffeine.newBuilder().ticker(ticker)
                    .expireAfter(Expiry.<String, Bucket>accessing((key, bucket) -> Duration.ofNanos(kept(bucket))))
                    .maximumSize(MAX_BUCKETS).build();
        }

        /**
         * How long a bucket must be kept after its last use: until it is full again (forgetting it then changes
         * nothing), and at least as long as an empty one takes to fill, so that one request's token is never
         * forgotten early. A bucket in debt is kept until the debt is paid.
         */
        private long kept(Bucket bucket) {
            double missing = limit.burst() - bucket.getAvailableTokens();
            double untilFull = Math.ceil(missing * limit.period().toNanos() / limit.tokens());
            return (long) Math.min(Long.MAX_VALUE / 2, Math.max(untilFull, refusal.fillSeconds() * 1_000_000_000.0));
        }

        private Bucket bucket(String key) {
            return buckets.get(key, k -> Bucket.builder()
                    .addLimit(l -> l.capacity(limit.burst()).refillGreedy(limit.tokens(), limit.period()))
                    .withCustomTimePrecision(time)
                    .build());
        }

        void take(String key) {
            ConsumptionProbe probe = bucket(key).tryConsumeAndReturnRemaining(1);
            if (!probe.isConsumed()) {
                throw refusal.refused(probe.getNanosToWaitForRefill());
            }
        }

        /** Refuses while the key's bucket has no token; takes none, and makes no bucket for a key it does not hold. */
        void refuseIfEmpty(String key) {
            Bucket bucket = buckets.getIfPresent(key);
            if (bucket != null) {
                EstimationProbe probe = bucket.estimateAbilityToConsume(1);
                if (!probe.canBeConsumed()) {
                    throw refusal.refused(probe.getNanosToWaitForRefill());
                }
            }
        }

        /** Takes a token even from an empty bucket (into debt), and keeps the bucket until the debt is paid. */
        void count(String key) {
            Bucket bucket = bucket(key);
            bucket.consumeIgnoringRateLimits(1);
            buckets.policy().expireVariably().ifPresent(expiry ->
                    expiry.setExpiresAfter(key, Duration.ofNanos(kept(bucket))));
        }

        long held() {
            buckets.cleanUp();
            return buckets.estimatedSize();
        }
    }

    /**
     * One limit in the buckets all instances share, a bucket per client address or key (its row is the limit's name
     * and the key), and what this instance knows without asking: the keys it saw refused, until when.
     */
    private static final class SharedLimiter {

        private final String name;
        private final BucketConfiguration configuration;
        private final ProxyManager<String> buckets;
        private final Refusal refusal;
        private final Ticker ticker;
        /** Per key: until when (the ticker's nanoseconds) the shared bucket refuses, as of its last answer here. */
        private final Cache<String, Long> refusedUntil;

        SharedLimiter(String name, RateLimitSettings.Limit limit, ProxyManager<String> buckets, Ticker ticker,
                      String detail) {
            this.name = name;
            this.configuration = configuration(limit);
            this.buckets = buckets;
            this.refusal = Refusal.of(name, limit, detail);
            this.ticker = ticker;
            this.refusedUntil = Caffeine.newBuilder().ticker(ticker)
                    .expireAfter(Expiry.<String, Long>writing((key, until) ->
                            Duration.ofNanos(Math.max(0, until - ticker.read()))))
                    .maximumSize(MAX_BUCKETS).build();
        }

        private Bucket bucket(String key) {
            return buckets.builder().build(name + ":" + key, () -> configuration);
        }

        /** Refuses, from memory, a key this instance saw refused for as long as the shared bucket refuses it. */
        void refuseIfRefused(String key) {
            Long until = refusedUntil.getIfPresent(key);
            if (until != null) {
                long wait = until - ticker.read();
                if (wait > 0) {
                    throw refusal.refused(wait);
                }
            }
        }

        /** Takes a token, or refuses (without taking one) while the bucket is empty. */
        void take(String key) {
            refuseIfRefused(key);
            ConsumptionProbe probe = bucket(key).tryConsumeAndReturnRemaining(1);
            if (!probe.isConsumed()) {
                throw refusedFor(key, probe.getNanosToWaitForRefill());
            }
        }

        /** Takes a token even from an empty bucket (into debt), and refuses if the bucket had none. */
        void count(String key) {
            long wait = bucket(key).consumeIgnoringRateLimits(1);
            if (wait > 0) {
                throw refusedFor(key, wait);
            }
        }

        private ApiException refusedFor(String key, long nanosToWait) {
            refusedUntil.put(key, ticker.read() + nanosToWait);
            return refusal.refused(nanosToWait);
        }
    }
}
