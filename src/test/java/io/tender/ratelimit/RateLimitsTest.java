package io.tender.ratelimit;

import io.github.bucket4j.TimeMeter;
import io.tender.api.ApiException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.mock.web.MockHttpServletRequest;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The buckets of {@link RateLimits} on a clock the test moves, and the settings' defaults and names. */
class RateLimitsTest {

    /** One clock for the buckets and for the caches that forget idle buckets. */
    private final AtomicLong nanos = new AtomicLong(TimeUnit.DAYS.toNanos(1));
    private final TimeMeter time = new TimeMeter() {
        @Override
        public long currentTimeNanos() {
            return nanos.get();
        }

        @Override
        public boolean isWallClockBased() {
            return false;
        }
    };

    private RateLimits limits(Map<String, Object> properties) {
        return new RateLimits(bind(properties), time, nanos::get);
    }

    private static RateLimitSettings bind(Map<String, Object> properties) {
        var environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return Binder.get(environment).bindOrCreate("tender.rate-limits", RateLimitSettings.class);
    }

    private void advance(long millis) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    private static MockHttpServletRequest from(String address) {
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.setRemoteAddr(address);
        return request;
    }

    @Test
    void theDefaultsAreThoseOfDecisions9() {
        RateLimitSettings settings = bind(Map.of());
        assertThat(settings.failedAuthentications()).isEqualTo(new RateLimitSettings.FailedAuthentications(10, 20));
        assertThat(settings.balanceLookups()).isEqualTo(new RateLimitSettings.BalanceLookups(10, 20));
        assertThat(settings.perKey()).isEqualTo(new RateLimitSettings.PerKey(1000, 2000));
        assertThat(settings.pageVisits()).isEqualTo(new RateLimitSettings.PageVisits(20, 20));
        assertThat(settings.pageViews()).isEqualTo(new RateLimitSettings.PageViews(120, 60));
    }

    @Test
    void theEnvironmentVariablesInTheReadmeSetThem() {
        var environment = new StandardEnvironment();
        // In place of the process's environment, under its name (which is what selects the environment's naming rules).
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(
                "TENDER_RATE_LIMITS_PER_KEY_PER_SECOND", "5000",
                "TENDER_RATE_LIMITS_PER_KEY_BURST", "9000",
                "TENDER_RATE_LIMITS_FAILED_AUTHENTICATIONS_BURST", "30",
                "TENDER_RATE_LIMITS_BALANCE_LOOKUPS_PER_SECOND", "2",
                "TENDER_RATE_LIMITS_PAGE_VISITS_PER_MINUTE", "60",
                "TENDER_RATE_LIMITS_PAGE_VISITS_BURST", "5",
                "TENDER_RATE_LIMITS_PAGE_VIEWS_PER_MINUTE", "600",
                "TENDER_RATE_LIMITS_PAGE_VIEWS_BURST", "100")));
        RateLimitSettings settings = Binder.get(environment).bindOrCreate("tender.rate-limits", RateLimitSettings.class);
        assertThat(settings.perKey()).isEqualTo(new RateLimitSettings.PerKey(5000, 9000));
        assertThat(settings.failedAuthentications()).isEqualTo(new RateLimitSettings.FailedAuthentications(10, 30));
        assertThat(settings.balanceLookups()).isEqualTo(new RateLimitSettings.BalanceLookups(2, 20));
        assertThat(settings.pageVisits()).isEqualTo(new RateLimitSettings.PageVisits(60, 5));
        assertThat(settings.pageViews()).isEqualTo(new RateLimitSettings.PageViews(600, 100));
    }

    @Test
    void aLimitBelowOneIsRefusedAtStartNamingTheSetting() {
        assertThatThrownBy(() -> bind(Map.of("tender.rate-limits.per-key.burst", "0")))
                .rootCause().hasMessage("tender.rate-limits.per-key.burst must be at least 1");
    }

    @Test
    void the21stFailedAuthenticationInABurstRefusesTheAddressUntilATokenIsBack() {
        RateLimits limits = limits(Map.of());
        var attacker = from("203.0.113.7");
        for (int i = 0; i < 20; i++) {
            limits.refuseIfFailingAuthentication(attacker);
            limits.failedAuthentication(attacker);
        }
        ApiException refused = catchThrowableOfType(ApiException.class,
                () -> limits.refuseIfFailingAuthentication(attacker));
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.code().code()).isEqualTo("too_many_requests");
        assertThat(refused.headers()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "Retry-After", "1",
                "RateLimit-Policy", "\"failed-auth\";q=20;w=2",
                "RateLimit", "\"failed-auth\";r=0;t=1"));
        // Checking takes nothing: another address, and this one a token's refill (100 ms) later, pass.
        limits.refuseIfFailingAuthentication(from("203.0.113.8"));
        advance(100);
        limits.refuseIfFailingAuthentication(attacker);
    }

    @Test
    void aKeyOverItsLimitIsRefusedAndOtherKeysAreNot() {
        RateLimits limits = limits(Map.of("tender.rate-limits.per-key.per-second", "1",
                "tender.rate-limits.per-key.burst", "3"));
        for (int i = 0; i < 3; i++) {
            limits.request("key_a");
        }
        ApiException refused = catchThrowableOfType(ApiException.class, () -> limits.request("key_a"));
        assertThat(refused.headers()).containsEntry("Retry-After", "1")
                .containsEntry("RateLimit-Policy", "\"per-key\";q=3;w=3");
        limits.request("key_b");
        advance(1000);
        limits.request("key_a");
    }

    @Test
    void retryAfterIsTheWaitForTheNextTokenInWholeSecondsRoundedUp() {
        RateLimits limits = limits(Map.of("tender.rate-limits.balance-lookups.per-second", "1",
                "tender.rate-limits.balance-lookups.burst", "1"));
        limits.balanceLookup("key_a");
        advance(100);
        ApiException refused = catchThrowableOfType(ApiException.class, () -> limits.balanceLookup("key_a"));
        assertThat(refused.headers()).containsEntry("Retry-After", "1")
                .containsEntry("RateLimit", "\"balance-lookup\";r=0;t=1");
        advance(900);
        limits.balanceLookup("key_a");
    }

    @Test
    void anAddressOpensItsBurstOfPageVisitsThenOneEveryRefillOfAMinute() {
        RateLimits limits = limits(Map.of("tender.rate-limits.page-visits.per-minute", "6",
                "tender.rate-limits.page-visits.burst", "3"));
        var payer = from("198.51.100.20");
        for (int i = 0; i < 3; i++) {
            limits.pageVisit(payer);
        }
        ApiException refused = catchThrowableOfType(ApiException.class, () -> limits.pageVisit(payer));
        assertThat(refused.status()).isEqualTo(429);
        // 6 a minute: one token every 10 s; an empty bucket of 3 fills in 30 s.
        assertThat(refused.headers()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "Retry-After", "10",
                "RateLimit-Policy", "\"page-visit\";q=3;w=30",
                "RateLimit", "\"page-visit\";r=0;t=10"));
        limits.pageVisit(from("198.51.100.21"));
        advance(9_000);
        assertThat(catchThrowableOfType(ApiException.class, () -> limits.pageVisit(payer))).isNotNull();
        advance(1_000);
        limits.pageVisit(payer);
    }

    @Test
    void anAddressMakesItsBurstOfPageViewsThenTwoASecond() {
        RateLimits limits = limits(Map.of());
        var guesser = from("198.51.100.30");
        for (int i = 0; i < 60; i++) {
            limits.pageView(guesser);
        }
        ApiException refused = catchThrowableOfType(ApiException.class, () -> limits.pageView(guesser));
        assertThat(refused.status()).isEqualTo(429);
        // 120 a minute: a token every 500 ms; an empty bucket of 60 fills in 30 s.
        assertThat(refused.headers()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "Retry-After", "1",
                "RateLimit-Policy", "\"page-view\";q=60;w=30",
                "RateLimit", "\"page-view\";r=0;t=1"));
        limits.pageView(from("198.51.100.31"));
        // Page views and page visits are separate buckets.
        limits.pageVisit(guesser);
        advance(499);
        assertThat(catchThrowableOfType(ApiException.class, () -> limits.pageView(guesser))).isNotNull();
        advance(1);
        limits.pageView(guesser);
    }

    @Test
    void aPageVisitLimitBelowOneIsRefusedNamingItsSetting() {
        assertThatThrownBy(() -> bind(Map.of("tender.rate-limits.page-visits.per-minute", "0")))
                .rootCause().hasMessage("tender.rate-limits.page-visits.per-minute must be at least 1");
    }

    @Test
    void aBucketIdleLongEnoughToBeFullIsForgottenWithoutChangingAnything() {
        RateLimits limits = limits(Map.of("tender.rate-limits.per-key.per-second", "1",
                "tender.rate-limits.per-key.burst", "2"));
        limits.request("key_a");
        limits.request("key_a");
        assertThatThrownBy(() -> limits.request("key_a")).isInstanceOf(ApiException.class);
        // Two seconds later the bucket is full again, whether it was kept or forgotten: two requests pass, not three.
        advance(2000);
        limits.request("key_a");
        limits.request("key_a");
        assertThatThrownBy(() -> limits.request("key_a")).isInstanceOf(ApiException.class);
    }

    @Test
    void anIpv6ClientCountsByItsSlash64AndAnIpv4ClientByItsAddress() {
        assertThat(RateLimits.clientAddress("2001:db8:1:2:aaaa:bbbb:cccc:dddd"))
                .isEqualTo(RateLimits.clientAddress("2001:db8:1:2::1")).isEqualTo("2001:db8:1:2:0:0:0:0/64");
        assertThat(RateLimits.clientAddress("2001:db8:1:3::1")).isNotEqualTo(RateLimits.clientAddress("2001:db8:1:2::1"));
        assertThat(RateLimits.clientAddress("::ffff:192.0.2.1")).isEqualTo("192.0.2.1");
        assertThat(RateLimits.clientAddress("192.0.2.1")).isEqualTo("192.0.2.1");

        RateLimits limits = limits(Map.of());
        for (int i = 0; i < 20; i++) {
            limits.failedAuthentication(from("2001:db8:1:2::" + Integer.toHexString(i + 1)));
        }
        assertThatThrownBy(() -> limits.refuseIfFailingAuthentication(from("2001:db8:1:2::ffff")))
                .isInstanceOf(ApiException.class);
        limits.refuseIfFailingAuthentication(from("2001:db8:1:3::1"));
    }
}
