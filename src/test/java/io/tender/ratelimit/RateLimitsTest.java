package io.tender.ratelimit;

import io.github.bucket4j.TimeMeter;
import io.tender.api.ApiException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.mock.web.MockHttpServletRequest;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The buckets of {@link RateLimits} on a clock the test moves, and the settings' defaults and names. The shared
 * buckets are in memory ({@link SharedBucketsInMemory}); two {@code RateLimits} on them are two instances on one
 * database.
 */
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

    /** The database every instance of a test uses. */
    private final SharedBucketsInMemory database = new SharedBucketsInMemory(time);

    private RateLimits limits(Map<String, Object> properties) {
        return new RateLimits(bind(properties), database, time, nanos::get);
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
        assertThat(settings.pageVisits()).isEqualTo(new RateLimitSettings.PageVisits(60, 60));
        assertThat(settings.pageViews()).isEqualTo(new RateLimitSettings.PageViews(120, 60));
        assertThat(settings.pageViewsPerId()).isEqualTo(new RateLimitSettings.PageViewsPerId(600, 300));
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
                "TENDER_RATE_LIMITS_PAGE_VIEWS_BURST", "100",
                "TENDER_RATE_LIMITS_PAGE_VIEWS_PER_ID_PER_MINUTE", "1200",
                "TENDER_RATE_LIMITS_PAGE_VIEWS_PER_ID_BURST", "400")));
        RateLimitSettings settings = Binder.get(environment).bindOrCreate("tender.rate-limits", RateLimitSettings.class);
        assertThat(settings.perKey()).isEqualTo(new RateLimitSettings.PerKey(5000, 9000));
        assertThat(settings.failedAuthentications()).isEqualTo(new RateLimitSettings.FailedAuthentications(10, 30));
        assertThat(settings.balanceLookups()).isEqualTo(new RateLimitSettings.BalanceLookups(2, 20));
        assertThat(settings.pageVisits()).isEqualTo(new RateLimitSettings.PageVisits(60, 5));
        assertThat(settings.pageViews()).isEqualTo(new RateLimitSettings.PageViews(600, 100));
        assertThat(settings.pageViewsPerId()).isEqualTo(new RateLimitSettings.PageViewsPerId(1200, 400));
    }

    @Test
    void aLimitBelowOneIsRefusedAtStartNamingTheSetting() {
        assertThatThrownBy(() -> bind(Map.of("tender.rate-limits.per-key.burst", "0")))
                .rootCause().hasMessage("tender.rate-limits.per-key.burst must be at least 1");
    }

    @Test
    void the21stFailedAuthenticationInABurstIsRefusedAndThenTheAddressUntilATokenIsBack() {
        RateLimits limits = limits(Map.of());
        var attacker = from("203.0.113.7");
        for (int i = 0; i < 20; i++) {
            limits.refuseIfFailingAuthentication(attacker);
            limits.failedAuthentication(attacker);
        }
        // The 21st is looked up (nothing here knew the address was over) and its failure answered 429, not 401.
        limits.refuseIfFailingAuthentication(attacker);
        ApiException refused = catchThrowableOfType(ApiException.class, () -> limits.failedAuthentication(attacker));
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.code().code()).isEqualTo("too_many_requests");
        assertThat(refused.headers()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "Retry-After", "1",
                "RateLimit-Policy", "\"failed-auth\";q=20;w=2",
                "RateLimit", "\"failed-auth\";r=0;t=1"));
        // From then on the address is refused before any lookup, until the token it went into debt for is back.
        assertThat(catchThrowableOfType(ApiException.class, () -> limits.refuseIfFailingAuthentication(attacker))
                .headers()).containsEntry("Retry-After", "1");
        limits.refuseIfFailingAuthentication(from("203.0.113.8"));
        advance(99);
        assertThatThrownBy(() -> limits.refuseIfFailingAuthentication(attacker)).isInstanceOf(ApiException.class);
        advance(1);
        limits.refuseIfFailingAuthentication(attacker);
    }

    @Test
    void twoInstancesCountAnAddresssFailuresInOneBucket() {
        RateLimits first = limits(Map.of());
        RateLimits second = limits(Map.of());
        var attacker = from("203.0.113.9");
        for (int i = 0; i < 20; i++) {
            RateLimits instance = i % 2 == 0 ? first : second;
            instance.refuseIfFailingAuthentication(attacker);
            instance.failedAuthentication(attacker);
        }
        assertThat(catchThrowableOfType(ApiException.class, () -> first.failedAuthentication(attacker)).status())
                .isEqualTo(429);
        // The second instance has not seen the refusal: it looks the next credential up, and counts its failure.
        second.refuseIfFailingAuthentication(attacker);
        assertThat(catchThrowableOfType(ApiException.class, () -> second.failedAuthentication(attacker)).status())
                .isEqualTo(429);
        assertThatThrownBy(() -> second.refuseIfFailingAuthentication(attacker)).isInstanceOf(ApiException.class);
        // Each refusal took a token it did not have: the bucket is two in debt, which 200 ms of refill pay back.
        advance(199);
        assertThatThrownBy(() -> second.refuseIfFailingAuthentication(attacker)).isInstanceOf(ApiException.class);
        advance(1);
        second.refuseIfFailingAuthentication(attacker);
    }

    @Test
    void guessesSpreadOverFourInstancesStayAtTheRateOfOneBucket() {
        List<RateLimits> instances = List.of(limits(Map.of()), limits(Map.of()), limits(Map.of()), limits(Map.of()));
        var attacker = from("203.0.113.10");
        int lookedUp = 0;
        // Every millisecond for 10 s, each instance gets a bad key; it looks it up unless it refuses the address.
        for (int millisecond = 0; millisecond < 10_000; millisecond++) {
            for (RateLimits instance : instances) {
                try {
                    instance.refuseIfFailingAuthentication(attacker);
                } catch (ApiException refusedBeforeLookup) {
                    continue;
                }
                lookedUp++;
                try {
                    instance.failedAuthentication(attacker);
                } catch (ApiException refusedAfterLookup) {
                    // a 429 in place of the 401: the guess was made all the same
                }
            }
            advance(1);
        }
        // The burst, 10 a second for 10 s, and at most one more per instance: each instance's first guess after the
        // debt is paid back. (Were refused failures free, each instance would get a guess every 100 ms, on top of the
        // one that takes the token: 519 were made, tried once.)
        assertThat(lookedUp).isBetween(20 + 100, 20 + 100 + instances.size());
        // The rest of the 40,000 attempts were refused from memory: the shared buckets saw one command per lookup.
        assertThat(database.commands()).isLessThanOrEqualTo(lookedUp + 1);
    }

    @Test
    void twoInstancesTakeAKeysBalanceLookupsFromOneBucket() {
        RateLimits first = limits(Map.of());
        RateLimits second = limits(Map.of());
        for (int i = 0; i < 20; i++) {
            (i % 2 == 0 ? first : second).balanceLookup("key_a");
        }
        ApiException refused = catchThrowableOfType(ApiException.class, () -> second.balanceLookup("key_a"));
        assertThat(refused.headers()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "Retry-After", "1",
                "RateLimit-Policy", "\"balance-lookup\";q=20;w=2",
                "RateLimit", "\"balance-lookup\";r=0;t=1"));
        assertThatThrownBy(() -> first.balanceLookup("key_a")).isInstanceOf(ApiException.class);
        first.balanceLookup("key_b");
        // A refused lookup takes nothing: 100 ms later one passes, on either instance, and then the next is refused.
        advance(100);
        first.balanceLookup("key_a");
        assertThatThrownBy(() -> second.balanceLookup("key_a")).isInstanceOf(ApiException.class);
    }

    @Test
    void aRequestWithAGoodKeyCostsTheSharedBucketsNothingAndItsKeyIsCountedInThisInstancesMemory() {
        RateLimits first = limits(Map.of("tender.rate-limits.per-key.burst", "2"));
        RateLimits second = limits(Map.of("tender.rate-limits.per-key.burst", "2"));
        // What Authentication does for a key that is valid: the check before the lookup, then the per-key bucket.
        var client = from("198.51.100.7");
        first.refuseIfFailingAuthentication(client);
        first.request("key_a");
        first.refuseIfFailingAuthentication(client);
        first.request("key_a");
        assertThatThrownBy(() -> first.request("key_a")).isInstanceOf(ApiException.class);
        second.refuseIfFailingAuthentication(client);
        second.request("key_a");
        assertThat(database.commands()).as("transactions on the shared buckets").isZero();
        // A failure and a balance lookup do use them.
        first.failedAuthentication(client);
        int afterTheFailure = database.commands();
        assertThat(afterTheFailure).isPositive();
        first.balanceLookup("key_a");
        assertThat(database.commands()).isGreaterThan(afterTheFailure);
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
    void anAddressOpensItsBurstOfVisitsOfOnePageThenOneEveryRefillOfAMinuteWhileItsOtherPagesOpen() {
        RateLimits limits = limits(Map.of("tender.rate-limits.page-visits.per-minute", "6",
                "tender.rate-limits.page-visits.burst", "3"));
        var payer = from("198.51.100.20");
        for (int i = 0; i < 3; i++) {
            limits.pageVisit(payer, "pp_a");
        }
        ApiException refused = catchThrowableOfType(ApiException.class, () -> limits.pageVisit(payer, "pp_a"));
        assertThat(refused.status()).isEqualTo(429);
        // 6 a minute: one token every 10 s; an empty bucket of 3 fills in 30 s.
        assertThat(refused.headers()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "Retry-After", "10",
                "RateLimit-Policy", "\"page-visit\";q=3;w=30",
                "RateLimit", "\"page-visit\";r=0;t=10"));
        limits.pageVisit(from("198.51.100.21"), "pp_a");
        limits.pageVisit(payer, "pp_b");
        advance(9_000);
        assertThat(catchThrowableOfType(ApiException.class, () -> limits.pageVisit(payer, "pp_a"))).isNotNull();
        advance(1_000);
        limits.pageVisit(payer, "pp_a");
    }

    /** One request of a public page by an id that does not exist: the check before the lookup, then its cost. */
    private static void unknownId(RateLimits limits, MockHttpServletRequest request) {
        limits.refuseIfTryingPageIds(request);
        limits.unknownPageId(request);
    }

    @Test
    void anAddressAskingForIdsThatDoNotExistHasItsBurstThenTwoASecondAndIsRefusedBeforeTheLookup() {
        RateLimits limits = limits(Map.of());
        var guesser = from("198.51.100.30");
        for (int i = 0; i < 60; i++) {
            unknownId(limits, guesser);
        }
        ApiException refused = catchThrowableOfType(ApiException.class, () -> limits.refuseIfTryingPageIds(guesser));
        assertThat(refused.status()).isEqualTo(429);
        // 120 a minute: a token every 500 ms; an empty bucket of 60 fills in 30 s.
        assertThat(refused.headers()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "Retry-After", "1",
                "RateLimit-Policy", "\"page-view\";q=60;w=30",
                "RateLimit", "\"page-view\";r=0;t=1"));
        // The refusal comes before any lookup: a page that exists is refused from that address too.
        assertThatThrownBy(() -> limits.refuseIfTryingPageIds(guesser)).isInstanceOf(ApiException.class);
        unknownId(limits, from("198.51.100.31"));
        // Unknown ids and page visits are separate buckets.
        limits.pageVisit(guesser, "pp_a");
        advance(499);
        assertThat(catchThrowableOfType(ApiException.class, () -> limits.refuseIfTryingPageIds(guesser))).isNotNull();
        advance(1);
        unknownId(limits, guesser);
    }

    @Test
    void unknownIdsSentAtOnceAllCountAndTheAddressWaitsUntilTheirDebtIsPaidEvenPastTheFillTime() {
        RateLimits limits = limits(Map.of());
        var guesser = from("198.51.100.32");
        // 200 requests at once all pass the check (none had counted yet) and all are looked up: 140 tokens of debt.
        for (int i = 0; i < 200; i++) {
            limits.refuseIfTryingPageIds(guesser);
        }
        for (int i = 0; i < 200; i++) {
            limits.unknownPageId(guesser);
        }
        ApiException refused = catchThrowableOfType(ApiException.class, () -> limits.refuseIfTryingPageIds(guesser));
        // 141 tokens to wait for, one every 500 ms.
        assertThat(refused.headers()).containsEntry("Retry-After", "71");
        // Past the 30 s an empty bucket takes to fill, the bucket in debt is still remembered, not forgotten as full.
        advance(60_000);
        assertThatThrownBy(() -> limits.refuseIfTryingPageIds(guesser)).isInstanceOf(ApiException.class);
        advance(10_500);
        unknownId(limits, guesser);
    }

    @Test
    void aPageThatExistsIsLimitedPerAddressAndIdApartFromTheAddresssUnknownIds() {
        RateLimits limits = limits(Map.of());
        var crowd = from("198.51.100.40");
        // A crowd behind one address: 300 at once, then 10 a second, for each page; unknown ids are not touched.
        for (int i = 0; i < 300; i++) {
            limits.refuseIfTryingPageIds(crowd);
            limits.pageView(crowd, "pp_popular");
        }
        ApiException refused = catchThrowableOfType(ApiException.class, () -> limits.pageView(crowd, "pp_popular"));
        assertThat(refused.status()).isEqualTo(429);
        // 600 a minute: a token every 100 ms; an empty bucket of 300 fills in 30 s.
        assertThat(refused.headers()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "Retry-After", "1",
                "RateLimit-Policy", "\"page-view-per-id\";q=300;w=30",
                "RateLimit", "\"page-view-per-id\";r=0;t=1"));
        assertThat(refused.getMessage()).contains("this page");
        limits.pageView(crowd, "ckt_other");
        limits.pageView(from("198.51.100.41"), "pp_popular");
        for (int i = 0; i < 60; i++) {
            unknownId(limits, crowd);
        }
        assertThatThrownBy(() -> limits.refuseIfTryingPageIds(crowd)).isInstanceOf(ApiException.class);
        advance(99);
        assertThatThrownBy(() -> limits.pageView(crowd, "pp_popular")).isInstanceOf(ApiException.class);
        advance(1);
        limits.pageView(crowd, "pp_popular");
    }

    @Test
    void aFloodOfAddressesHoldsAtMostTheCapOfPageBucketsPerLimit() {
        RateLimits limits = limits(Map.of());
        for (int i = 0; i < RateLimits.MAX_BUCKETS + 20_000; i++) {
            var request = from("10." + (i >> 16) + "." + ((i >> 8) & 255) + "." + (i & 255));
            limits.unknownPageId(request);
            limits.pageView(request, "pp_popular");
        }
        assertThat(limits.pageBuckets().perAddress()).isLessThanOrEqualTo(RateLimits.MAX_BUCKETS);
        assertThat(limits.pageBuckets().perAddressAndId()).isLessThanOrEqualTo(RateLimits.MAX_BUCKETS);
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
        assertThatThrownBy(() -> limits.failedAuthentication(from("2001:db8:1:2::ffff")))
                .isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> limits.refuseIfFailingAuthentication(from("2001:db8:1:2::fffe")))
                .isInstanceOf(ApiException.class);
        limits.refuseIfFailingAuthentication(from("2001:db8:1:3::1"));
        limits.failedAuthentication(from("2001:db8:1:3::1"));
    }
}
