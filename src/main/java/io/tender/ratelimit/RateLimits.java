package io.tender.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.EstimationProbe;
import io.github.bucket4j.TimeMeter;
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
 * The rate limits of decisions §9, as token buckets (Bucket4j) in this instance's memory. A refusal is an
 * {@link ApiException} 429 {@code too_many_requests} with {@code Retry-After} (whole seconds until the next token,
 * at least 1) and the fields of draft-ietf-httpapi-ratelimit-headers-09: {@code RateLimit-Policy: "per-key";q=2000;w=2}
 * (q: the burst; w: the seconds an empty bucket takes to fill) and {@code RateLimit: "per-key";r=0;t=1} (r: tokens
 * left; t: {@code Retry-After}).
 *
 * <p>Buckets live in caches that forget a bucket once it has been idle long enough to be full again (so forgetting
 * it changes nothing) and hold at most {@value #MAX_BUCKETS} per limit, so a flood of addresses or keys cannot grow
 * memory without bound.
 */
@Component
public class RateLimits {

    static final int MAX_BUCKETS = 100_000;
    static final String RETRY_AFTER = HttpHeaders.RETRY_AFTER;
    static final String POLICY = "RateLimit-Policy";
    static final String STATE = "RateLimit";

    private final Limiter failedAuthentications;
    private final Limiter balanceLookups;
    private final Limiter perKey;
    private final Limiter pageVisits;
    private final Limiter pageViews;

    @Autowired
    RateLimits(RateLimitSettings settings) {
        this(settings, TimeMeter.SYSTEM_NANOTIME, Ticker.systemTicker());
    }

    /** With the clocks of a test: one for the buckets, one for the caches that forget idle buckets. */
    RateLimits(RateLimitSettings settings, TimeMeter time, Ticker ticker) {
        this.failedAuthentications = new Limiter("failed-auth", settings.failedAuthentications(), time, ticker,
                "Too many failed authentications from this client address. Retry after the time in Retry-After.");
        this.balanceLookups = new Limiter("balance-lookup", settings.balanceLookups(), time, ticker,
                "Too many balance lookups with this API key. Retry after the time in Retry-After.");
        this.perKey = new Limiter("per-key", settings.perKey(), time, ticker,
                "Too many requests with this API key. Retry after the time in Retry-After.");
        this.pageVisits = new Limiter("page-visit", settings.pageVisits(), time, ticker,
                "Too many payment page visits from this client address. Retry after the time in Retry-After.");
        this.pageViews = new Limiter("page-view", settings.pageViews(), time, ticker,
                "Too many requests for payment pages from this client address. Retry after the time in Retry-After.");
    }

    /**
     * Refuses a request that presents a credential when its client address has used up its failed authentications,
     * before the credential is looked up. Takes no token: only failures do ({@link #failedAuthentication}).
     */
    public void refuseIfFailingAuthentication(HttpServletRequest request) {
        failedAuthentications.refuseIfEmpty(clientAddress(request.getRemoteAddr()));
    }

    /** Counts a credential that was presented and not valid against the request's client address. */
    public void failedAuthentication(HttpServletRequest request) {
        failedAuthentications.count(clientAddress(request.getRemoteAddr()));
    }

    /** Takes one request from the key's bucket, or refuses it. */
    public void request(String keyId) {
        perKey.take(keyId);
    }

    /** Takes one balance lookup from the key's bucket, or refuses it. */
    public void balanceLookup(String keyId) {
        balanceLookups.take(keyId);
    }

    /** Takes one payment page visit (one payment session opened) from the client address's bucket, or refuses it. */
    public void pageVisit(HttpServletRequest request) {
        pageVisits.take(clientAddress(request.getRemoteAddr()));
    }

    /**
     * Takes one request of a public page by its id (decisions §12) from the client address's bucket, or refuses it.
     * Taken before the id is looked up, so that a refusal says nothing about the id.
     */
    public void pageView(HttpServletRequest request) {
        pageViews.take(clientAddress(request.getRemoteAddr()));
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

    /** One limit: a bucket per client address or key. */
    private static final class Limiter {

        private final String name;
        private final RateLimitSettings.Limit limit;
        private final TimeMeter time;
        private final String refusal;
        private final Cache<String, Bucket> buckets;
        private final String policy;

        Limiter(String name, RateLimitSettings.Limit limit, TimeMeter time, Ticker ticker, String refusal) {
            this.name = name;
            this.limit = limit;
            this.time = time;
            this.refusal = refusal;
            long periodNanos = limit.period().toNanos();
            long fillSeconds = Math.max(1, Math.ceilDiv(Math.ceilDiv(limit.burst() * periodNanos, limit.tokens()),
                    1_000_000_000L));
            this.policy = "\"" + name + "\";q=" + limit.burst() + ";w=" + fillSeconds;
            this.buckets = Caffeine.newBuilder().ticker(ticker)
                    .expireAfterAccess(Duration.ofSeconds(fillSeconds)).maximumSize(MAX_BUCKETS).build();
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
                throw refused(probe.getNanosToWaitForRefill());
            }
        }

        void refuseIfEmpty(String key) {
            Bucket bucket = buckets.getIfPresent(key);
            if (bucket == null) {
                return;
            }
            EstimationProbe probe = bucket.estimateAbilityToConsume(1);
            if (!probe.canBeConsumed()) {
                throw refused(probe.getNanosToWaitForRefill());
            }
        }

        void count(String key) {
            // Never below empty: a flood of failures cannot push the wait further out than one token's refill.
            bucket(key).tryConsume(1);
        }

        private ApiException refused(long nanosToWait) {
            long seconds = Math.max(1, Math.ceilDiv(nanosToWait, 1_000_000_000L));
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put(RETRY_AFTER, Long.toString(seconds));
            headers.put(POLICY, policy);
            headers.put(STATE, "\"" + name + "\";r=0;t=" + seconds);
            return new ApiException(ProblemCode.TOO_MANY_REQUESTS, 429, refusal, List.of(), headers);
        }
    }
}
