package io.tender.ratelimit;

import io.tender.support.Api;
import io.tender.support.AtOnce;
import io.tender.support.IntegrationTestSupport;
import io.tender.support.Merchants.Merchant;
import io.tender.support.SecondInstance;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.IntFunction;

import static io.tender.support.ProblemAssertions.assertProblem;
import static io.tender.support.Vouchers.token;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §12: the failed-authentication and balance-lookup limits hold across instances. Two instances of the
 * service on one PostgreSQL (this test's context and a {@link SecondInstance} on its database), the §9 defaults, and
 * an attacker that sends every other request to the other instance: it gets the burst of 20 once, not once per
 * instance. Buckets refill while the test runs (10 tokens a second), so "the 21st is refused" is checked as in
 * {@link RateLimitsIT}: at least the burst passes, and the first refusal comes no later than the refill allows. With
 * buckets per instance each instance lets 20 through, 40 in all, and the first refusal comes only after them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
        "management.server.port=0",
        "tender.bootstrap-keys=",
})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LimitsAcrossInstancesIT extends IntegrationTestSupport {

    private static final Path DATA_DIR = temporaryDataDirectory("limits-across-instances");
    private static final String UNKNOWN_KEY = "sk_test_0123456789abcdef0123456789abcdef76543210";

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
    }

    @Autowired
    ApplicationContext context;

    @Autowired
    SharedBucketPurge purge;

    private ConfigurableApplicationContext second;

    @BeforeAll
    void startTheSecondInstance() {
        second = SecondInstance.start(context, DATA_DIR.resolveSibling(DATA_DIR.getFileName() + "-second"));
    }

    @AfterAll
    void stopTheSecondInstance() {
        if (second != null) {
            second.close();
        }
    }

    private String secondBase() {
        return SecondInstance.baseUrl(second);
    }

    /** What came back until the first 429 (included), and how long that took. */
    private record Run(List<Api.Response> responses, long nanos) {
        Api.Response refusal() {
            return responses.getLast();
        }

        int passed() {
            return responses.size() - 1;
        }

        /** The most one bucket of 20 refilled at 10 a second can have let through in this run. */
        long mostAllowed() {
            return 20 + (long) Math.ceil(nanos / 1e9 * 10) + 1;
        }
    }

    /**
     * Request {@code i} goes to instance {@code i % 2}: a burst of 20 at once, then one at a time until the first
     * 429.
     */
    private static Run alternatelyUntilRefused(IntFunction<Api.Response> request) {
        long start = System.nanoTime();
        List<Api.Response> responses = new ArrayList<>(AtOnce.send(20, request));
        assertThat(responses).as("the burst").noneMatch(r -> r.status() == 429);
        while (responses.getLast().status() != 429) {
            assertThat(responses).as("a 429 within 200 requests").hasSizeLessThan(200);
            responses.add(request.apply(responses.size()));
        }
        return new Run(responses, System.nanoTime() - start);
    }

    private static void assertTooManyRequests(Api.Response response, String policy) {
        assertProblem(response, 429, "too_many_requests");
        long retryAfter = Long.parseLong(response.header("Retry-After"));
        assertThat(retryAfter).isBetween(1L, 2L);
        assertThat(response.header("RateLimit-Policy")).isEqualTo("\"" + policy + "\";q=20;w=2");
        assertThat(response.header("RateLimit")).isEqualTo("\"" + policy + "\";r=0;t=" + retryAfter);
    }

    @Test
    void badKeysSentToTwoInstancesInTurnUseOneBucketOfTheirAddress() {
        List<Api> attacker = List.of(anonymous().as(UNKNOWN_KEY).from("127.0.0.2"),
                new Api(secondBase(), UNKNOWN_KEY).from("127.0.0.2"));

        Run run = alternatelyUntilRefused(i -> attacker.get(i % 2).get("/collect/redemptions").send());

        assertThat(run.responses().subList(0, run.passed())).allSatisfy(r -> assertProblem(r, 401, "unauthorized"));
        assertThat(run.passed()).as("bad keys let through by both instances together")
                .isBetween(20, (int) run.mostAllowed());
        assertTooManyRequests(run.refusal(), "failed-auth");
        // The instance that did not answer the refusal has seen only half of them, and refuses too: the bucket is in
        // debt for the refused one (a refused failure still counts), so no token can have come back meanwhile.
        int other = run.responses().size() % 2;
        assertTooManyRequests(attacker.get(other).get("/collect/redemptions").send(), "failed-auth");

        // Another address is not affected on either instance.
        assertProblem(anonymous().as(UNKNOWN_KEY).from("127.0.0.3").get("/collect/redemptions").send(),
                401, "unauthorized");
        assertProblem(new Api(secondBase(), UNKNOWN_KEY).from("127.0.0.3").get("/collect/redemptions").send(),
                401, "unauthorized");
    }

    @Test
    void balanceLookupsWithOneKeySentToTwoInstancesInTurnUseOneBucketOfTheKey() {
        Merchant merchant = merchants.create();
        List<Api> key = List.of(merchant.test(), new Api(secondBase(), merchant.test().key()));

        Run run = alternatelyUntilRefused(i -> lookup(key.get(i % 2)));

        assertThat(run.responses().subList(0, run.passed())).allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
        assertThat(run.passed()).as("lookups let through by both instances together")
                .isBetween(20, (int) run.mostAllowed());
        assertTooManyRequests(run.refusal(), "balance-lookup");

        // The key does everything else on both instances; another merchant's key looks up.
        for (Api instance : key) {
            assertThat(instance.get("/collect/redemptions").send().status()).isEqualTo(200);
        }
        Merchant another = merchants.create();
        assertThat(lookup(new Api(secondBase(), another.test().key())).status()).isEqualTo(200);
    }

    @Test
    void aBucketsRowExpiresOnceTheBucketIsFullAgainAndThePurgeDeletesExpiredRowsOnly() {
        long before = System.currentTimeMillis();
        assertProblem(anonymous().as(UNKNOWN_KEY).from("127.0.0.4").get("/collect/redemptions").send(),
                401, "unauthorized");
        assertProblem(new Api(secondBase(), UNKNOWN_KEY).from("127.0.0.5").get("/collect/redemptions").send(),
                401, "unauthorized");
        long after = System.currentTimeMillis();
        // One token out of 20 is back after 100 ms; the row is kept a minute beyond, for clocks not quite in step.
        assertThat(jdbc.sql("select expires_at from rate_limit_buckets where id = ?").param("failed-auth:127.0.0.4")
                .query(Long.class).single()).isBetween(before + 60_100, after + 60_100);

        // As if that time had passed for the first address's bucket only.
        jdbc.sql("update rate_limit_buckets set expires_at = ? where id = ?")
                .params(System.currentTimeMillis() - 1, "failed-auth:127.0.0.4").update();
        assertThat(purge.purge()).isPositive();
        assertThat(jdbc.sql("select id from rate_limit_buckets").query(String.class).list())
                .doesNotContain("failed-auth:127.0.0.4").contains("failed-auth:127.0.0.5");
        // Its next failure starts a full bucket again.
        assertProblem(anonymous().as(UNKNOWN_KEY).from("127.0.0.4").get("/collect/redemptions").send(),
                401, "unauthorized");
        assertThat(jdbc.sql("select count(*) from rate_limit_buckets where id = ?").param("failed-auth:127.0.0.4")
                .query(Long.class).single()).isEqualTo(1);
    }

    private static Api.Response lookup(Api key) {
        return key.post("/stored_value/lookup", "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\""
                + token("4417") + "\"}}").idempotencyKey(UUID.randomUUID().toString()).send();
    }
}
