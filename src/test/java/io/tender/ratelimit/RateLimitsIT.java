package io.tender.ratelimit;

import io.tender.support.Api;
import io.tender.support.AtOnce;
import io.tender.support.IntegrationTestSupport;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

import static io.tender.support.ProblemAssertions.assertProblem;
import static io.tender.support.Vouchers.token;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §9 with the default limits (a context of its own: the shared ones raise the failed-authentication limit,
 * since their tests send bad keys from 127.0.0.1). Client addresses are told apart by connecting from other loopback
 * addresses (127.0.0.2, ...), which Linux routes to this machine: the service sees them as other clients.
 *
 * <p>Buckets refill while the test runs (10 tokens a second), so "the 21st is refused" is checked as: at least the
 * burst of 20 passes, and the first refusal comes no later than the tokens refilled meanwhile allow.
 *
 * <p>One limit is not the default: a page's requests per address and id keep their burst of 300 but refill at 60 a
 * minute, not 600, so that on a busy machine (a request every 100 ms) the bucket still empties faster than it fills.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
        "tender.bootstrap-keys=",
        "tender.rate-limits.page-views-per-id.per-minute=60",
})
class RateLimitsIT extends IntegrationTestSupport {

    private static final Path DATA_DIR = temporaryDataDirectory("rate-limits");
    private static final String UNKNOWN_KEY = "sk_test_0123456789abcdef0123456789abcdef01234567";

    @Autowired
    RateLimits rateLimits;

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
    }

    /** What came back until the first 429 (included), and how long that took. */
    private record Run(List<Api.Response> responses, long nanos) {
        Api.Response refusal() {
            return responses.getLast();
        }

        /** Requests before the refusal that the limit let through. */
        int passed() {
            return responses.size() - 1;
        }

        /** The most a bucket of 20 refilled at 10 a second can have let through in this run. */
        long mostAllowed() {
            return 20 + (long) Math.ceil(nanos / 1e9 * 10) + 1;
        }
    }

    /** {@code burst} requests at once (a client's burst), then one at a time until the first 429. */
    private static Run untilRefused(int burst, Supplier<Api.Response> request) {
        return untilRefused(burst, 200, request);
    }

    /** As {@link #untilRefused(int, Supplier)}, failing if no 429 came within {@code most} requests. */
    private static Run untilRefused(int burst, int most, Supplier<Api.Response> request) {
        long start = System.nanoTime();
        List<Api.Response> responses = new ArrayList<>(AtOnce.send(burst, i -> request.get()));
        assertThat(responses).as("the burst").noneMatch(r -> r.status() == 429);
        while (responses.getLast().status() != 429) {
            assertThat(responses).as("a 429 within " + most + " requests").hasSizeLessThan(most);
            responses.add(request.get());
        }
        return new Run(responses, System.nanoTime() - start);
    }

    /** The problem of decisions §1 with {@code Retry-After} and the draft-09 fields of the named policy. */
    private static long assertTooManyRequests(Api.Response response, String policy, long quota, long window) {
        JsonNode problem = assertProblem(response, 429, "too_many_requests");
        assertThat(problem.get("detail").stringValue()).contains("Retry-After");
        long retryAfter = Long.parseLong(response.header("Retry-After"));
        assertThat(retryAfter).isBetween(1L, window);
        assertThat(response.header("RateLimit-Policy")).isEqualTo("\"" + policy + "\";q=" + quota + ";w=" + window);
        assertThat(response.header("RateLimit")).isEqualTo("\"" + policy + "\";r=0;t=" + retryAfter);
        return retryAfter;
    }

    /**
     * {@code good} sent straight after {@code bad} requests drained the address's bucket, until it is refused (a
     * token comes back every 100 ms, so one attempt may fall just after a refill): the first refusal.
     */
    private static Api.Response refusedAfterDraining(Supplier<Api.Response> bad, Supplier<Api.Response> good) {
        for (int attempt = 0; attempt < 10; attempt++) {
            while (bad.get().status() != 429) {
                // drain the tokens that came back
            }
            Api.Response response = good.get();
            if (response.status() == 429) {
                return response;
            }
        }
        throw new AssertionError("a good request from an address over its limit was never refused");
    }

    private static void await(long seconds) throws InterruptedException {
        Thread.sleep(seconds * 1000 + 100);
    }

    private Api.Response lookup(Api key, String idempotencyKey) {
        return key.post("/stored_value/lookup", "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\""
                + token("4417") + "\"}}").idempotencyKey(idempotencyKey).send();
    }

    @Test
    void anAddressThatKeepsPresentingBadKeysIsRefusedEvenWithAGoodOneUntilRetryAfterWhileOtherAddressesPass()
            throws InterruptedException {
        Merchant merchant = merchants.create();
        Api attacker = anonymous().as(UNKNOWN_KEY).from("127.0.0.2");

        Run run = untilRefused(20, () -> attacker.get("/collect/redemptions").send());
        assertThat(run.responses().subList(0, run.passed()))
                .allSatisfy(r -> assertProblem(r, 401, "unauthorized"));
        assertThat(run.passed()).isBetween(20, (int) run.mostAllowed());
        long retryAfter = assertTooManyRequests(run.refusal(), "failed-auth", 20, 2);

        // From that address a valid key is refused too, before it is looked up: the 429 tells nothing about keys.
        Api goodFromAttacker = merchant.test().from("127.0.0.2");
        assertTooManyRequests(refusedAfterDraining(() -> attacker.get("/collect/redemptions").send(),
                () -> goodFromAttacker.get("/collect/redemptions").send()), "failed-auth", 20, 2);
        // A request without credentials costs no lookup and is answered as before.
        assertProblem(anonymous().from("127.0.0.2").get("/collect/redemptions").send(), 401, "unauthorized");

        // Other addresses are not affected: good keys pass, bad keys are 401.
        assertThat(merchant.test().get("/collect/redemptions").send().status()).isEqualTo(200);
        assertThat(merchant.test().from("127.0.0.5").get("/collect/redemptions").send().status()).isEqualTo(200);
        assertProblem(anonymous().as(UNKNOWN_KEY).get("/collect/redemptions").send(), 401, "unauthorized");

        await(retryAfter);
        var afterwards = goodFromAttacker.get("/collect/redemptions").send();
        assertThat(afterwards.status()).as(afterwards.toString()).isEqualTo(200);
    }

    @Test
    void wrongAdminTokensCountAsFailedAuthenticationsOfTheirAddress() throws InterruptedException {
        Api guesser = new Api(base(), "wrong-admin-token-0123456789abcdef").from("127.0.0.3");
        Run run = untilRefused(20, () -> guesser.get("/admin/merchants").send());
        assertThat(run.responses().subList(0, run.passed()))
                .allSatisfy(r -> assertProblem(r, 401, "unauthorized"));
        assertThat(run.passed()).isBetween(20, (int) run.mostAllowed());
        long retryAfter = assertTooManyRequests(run.refusal(), "failed-auth", 20, 2);

        // The right token from that address waits too; from another address it works (merchants.create uses it).
        Api admin = new Api(base(), ADMIN_TOKEN);
        assertTooManyRequests(refusedAfterDraining(() -> guesser.get("/admin/merchants").send(),
                () -> admin.from("127.0.0.3").get("/admin/merchants").send()), "failed-auth", 20, 2);
        assertThat(admin.get("/admin/merchants").send().status()).isEqualTo(200);

        await(retryAfter);
        assertThat(admin.from("127.0.0.3").get("/admin/merchants").send().status()).isEqualTo(200);
    }

    @Test
    void balanceLookupsAreLimitedPerKeyAndARefusedLookupLeavesItsIdempotencyKeyUnused() throws InterruptedException {
        Merchant merchant = merchants.create();
        Merchant other = merchants.create();

        List<String> idempotencyKeys = new ArrayList<>();
        Run run = untilRefused(20, () -> {
            String key = UUID.randomUUID().toString();
            synchronized (idempotencyKeys) {
                idempotencyKeys.add(key);
            }
            return lookup(merchant.test(), key);
        });
        assertThat(run.responses().subList(0, run.passed())).allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
        assertThat(run.passed()).isBetween(20, (int) run.mostAllowed());
        long retryAfter = assertTooManyRequests(run.refusal(), "balance-lookup", 20, 2);
        String refusedKey = idempotencyKeys.getLast();
        assertThat(jdbc.sql("select count(*) from idempotency_keys where merchant_id = ?").param(merchant.id())
                .query(Long.class).single()).as("one stored answer per lookup that ran").isEqualTo(run.passed());

        // Another merchant's key looks up; the limited key still does everything else.
        assertThat(lookup(other.test(), UUID.randomUUID().toString()).status()).isEqualTo(200);
        assertThat(merchant.test().get("/collect/redemptions").send().status()).isEqualTo(200);

        await(retryAfter);
        var retried = lookup(merchant.test(), refusedKey);
        assertThat(retried.status()).as(retried.toString()).isEqualTo(200);
        assertThat(retried.header("Idempotent-Replayed")).as("the refused key ran anew").isNull();
        assertThat(retried.json().get("balance").longValue()).isEqualTo(20000);
    }

    @Test
    void anAddressOpensAtMostItsBurstOfVisitsOfOnePageThenAPageSaysWhenToComeBack() {
        Merchant merchant = merchants.create();
        var created = merchant.test().post("/collect/payment_pages", "{\"title\":\"Tips\",\"currency\":\"ZAR\","
                + "\"amount\":1000,\"requires_customer_details\":false}").send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String path = java.net.URI.create(created.json().get("page_url").stringValue()).getPath();
        Api payer = anonymous().from("127.0.0.6");
        Supplier<Api.Response> visit = () -> visit(payer, path);

        Run run = untilRefused(60, visit);
        assertThat(run.responses().subList(0, run.passed())).allSatisfy(r -> assertThat(r.status()).isEqualTo(303));
        // 60 a minute: a token every second while the run lasted.
        assertThat(run.passed()).isBetween(60, 60 + (int) Math.ceil(run.nanos() / 1e9) + 1);
        Api.Response refused = run.refusal();
        assertThat(refused.contentType()).startsWith("text/html");
        assertThat(refused.text()).contains("Too many attempts", "Nothing was sent");
        assertThat(Long.parseLong(refused.header("Retry-After"))).isEqualTo(1L);
        assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"page-visit\";q=60;w=60");

        // Another address is not affected, nor another page from this address (a crowd behind one NAT address).
        assertThat(visit(anonymous().from("127.0.0.7"), path).status()).isEqualTo(303);
        var other = merchant.test().post("/collect/payment_pages", "{\"title\":\"Coffee\",\"currency\":\"ZAR\","
                + "\"amount\":2500,\"requires_customer_details\":false}").send();
        assertThat(visit(payer, java.net.URI.create(other.json().get("page_url").stringValue()).getPath()).status())
                .isEqualTo(303);
    }

    @Test
    void anAddressTryingPageIdsIsRefusedAfterItsBudgetWhileAnotherAddressOpensPages() {
        // The enumeration of issue 26, scaled down: one address asks for payment page ids it does not know, as fast as
        // it can. The page views of decisions §12: a burst of 60, then 2 a second.
        Merchant merchant = merchants.create();
        String page = pageUrl(merchant, "Unlisted");
        String checkout = checkoutUrl(merchant);
        Api guesser = anonymous().from("127.0.0.8");
        RateLimits.PageBuckets before = rateLimits.pageBuckets();

        long start = System.nanoTime();
        List<Api.Response> responses = new ArrayList<>(AtOnce.send(60,
                i -> guesser.get("/pages/" + io.tender.api.Ids.newPublicId("pp_")).send()));
        assertThat(responses).as("the burst").allSatisfy(r -> assertThat(r.status()).isEqualTo(404));
        while (responses.getLast().status() != 429) {
            assertThat(responses).as("a 429 within 300 guesses").hasSizeLessThan(300);
            responses.add(guesser.get("/pages/" + io.tender.api.Ids.newPublicId("pp_")).send());
        }
        // 2 a second: a token every 500 ms while the run lasted.
        assertThat(responses.size() - 1).isBetween(60, 60 + (int) Math.ceil((System.nanoTime() - start) / 5e8) + 1);
        Api.Response refused = responses.getLast();
        assertThat(refused.contentType()).startsWith("text/html");
        assertThat(refused.text()).contains("Too many requests", "Nothing was charged").doesNotContain("Unlisted");
        assertThat(Long.parseLong(refused.header("Retry-After"))).isEqualTo(1L);
        assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"page-view\";q=60;w=30");
        assertThat(refused.header("Cache-Control")).isEqualTo("no-store");

        // From that address, the real page, the checkout and its status are refused too, before their ids are looked
        // up (drained again first: a token comes back every 500 ms).
        Supplier<Api.Response> drain = () -> guesser.get("/pages/" + io.tender.api.Ids.newPublicId("pp_")).send();
        assertThat(refusedAfterDraining(drain, () -> guesser.get(page).send()).text()).doesNotContain("Unlisted");
        assertThat(refusedAfterDraining(drain, () -> guesser.get(checkout).send()).status()).isEqualTo(429);
        assertTooManyRequests(refusedAfterDraining(drain,
                () -> guesser.get(checkout + "/status").header("Accept", "application/json").send()), "page-view", 60, 30);

        // Another address opens the page and the checkout.
        Api payer = anonymous().from("127.0.0.9");
        var opened = payer.get(page).send();
        assertThat(opened.status()).isEqualTo(200);
        assertThat(opened.text()).contains("Unlisted");
        assertThat(payer.get(checkout).send().status()).isEqualTo(200);

        // Hundreds of distinct unknown ids made no bucket per id (those are made for ids that exist), and one bucket
        // for the guessing address at most (buckets of other tests may have expired meanwhile).
        RateLimits.PageBuckets after = rateLimits.pageBuckets();
        assertThat(after.perAddressAndId()).isLessThanOrEqualTo(before.perAddressAndId() + 2);
        assertThat(after.perAddress()).isLessThanOrEqualTo(before.perAddress() + 1);
    }

    @Test
    void aCrowdBehindOneAddressOpensOnePageAndPollsOneCheckoutFarPastTheBudgetOfUnknownIds() {
        // Decisions §13: payers on one mobile network's carrier-grade NAT address share a merchant's popular page.
        Merchant merchant = merchants.create();
        String page = pageUrl(merchant, "Shared on social media");
        String checkout = checkoutUrl(merchant);
        Api crowd = anonymous().from("127.0.0.10");

        long start = System.nanoTime();
        List<Api.Response> responses = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
            responses.addAll(AtOnce.send(100, i -> crowd.get(page).send()));
            responses.addAll(AtOnce.send(100, i -> crowd.get(checkout + "/status").header("Accept", "application/json")
                    .send()));
            responses.add(crowd.get(checkout).send());
        }
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        // 402 requests from one address, in far less than a minute: the old per-address budget (a burst of 60, then 2
        // a second) refused all but some 60 of them.
        assertThat(seconds).isLessThan(60);
        assertThat(responses).hasSize(402).allSatisfy(r -> assertThat(r.status()).as(r.toString()).isEqualTo(200));
        assertThat(responses.getFirst().text()).contains("Shared on social media");

        // The address's budget of unknown ids is untouched: a whole burst of them is still answered 404.
        assertThat(AtOnce.send(60, i -> crowd.get("/pages/" + io.tender.api.Ids.newPublicId("pp_")).send()))
                .allSatisfy(r -> assertThat(r.status()).isEqualTo(404));
    }

    @Test
    void onePageOrCheckoutAskedForPastItsOwnBurstFromOneAddressIsRefusedWhileOtherPagesAndAddressesPass() {
        Merchant merchant = merchants.create();
        String page = pageUrl(merchant, "Hammered");
        String other = pageUrl(merchant, "Quiet");
        String status = checkoutUrl(merchant) + "/status";
        Api client = anonymous().from("127.0.0.11");

        // The page: a burst of 300, then one a second (60 a minute in this context).
        Run run = untilRefused(300, 500, () -> client.get(page).send());
        assertThat(run.responses().subList(0, run.passed())).allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
        assertThat(run.passed()).isBetween(300, 300 + (int) Math.ceil(run.nanos() / 1e9) + 1);
        Api.Response refused = run.refusal();
        assertThat(refused.contentType()).startsWith("text/html");
        assertThat(refused.text()).contains("Too many requests", "Nothing was charged").doesNotContain("Hammered");
        assertThat(Long.parseLong(refused.header("Retry-After"))).isEqualTo(1L);
        assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"page-view-per-id\";q=300;w=300");
        assertThat(refused.header("Cache-Control")).isEqualTo("no-store");

        // The checkout's status polls have their own bucket, refused as the API's problem past it.
        Run polls = untilRefused(300, 500, () -> client.get(status).header("Accept", "application/json").send());
        assertThat(polls.responses().subList(0, polls.passed())).allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
        assertThat(polls.passed()).isBetween(300, 300 + (int) Math.ceil(polls.nanos() / 1e9) + 1);
        assertTooManyRequests(polls.refusal(), "page-view-per-id", 300, 300);

        // From that address another page opens, and an unknown id is still just not found; from another address the
        // hammered page opens.
        assertThat(client.get(other).send().status()).isEqualTo(200);
        assertThat(client.get("/pages/" + io.tender.api.Ids.newPublicId("pp_")).send().status()).isEqualTo(404);
        assertThat(anonymous().from("127.0.0.12").get(page).send().status()).isEqualTo(200);
    }

    /** The path of a new checkout of the merchant's. */
    private static String checkoutUrl(Merchant merchant) {
        var session = merchant.test().post("/collect/payment_sessions", "{\"amount\":1000,\"currency\":\"ZAR\"}").send();
        assertThat(session.status()).as(session.toString()).isEqualTo(201);
        return java.net.URI.create(session.json().get("session_url").stringValue()).getPath();
    }

    /** The path of a new payment page of the merchant's, with this title. */
    private static String pageUrl(Merchant merchant, String title) {
        var created = merchant.test().post("/collect/payment_pages", "{\"title\":\"" + title + "\",\"currency\":\"ZAR\","
                + "\"amount\":1000,\"requires_customer_details\":false}").send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return java.net.URI.create(created.json().get("page_url").stringValue()).getPath();
    }

    /** A payer's visit: opens the page for its form's token and posts the form. */
    private static Api.Response visit(Api payer, String path) {
        var page = payer.get(path).send();
        var token = java.util.regex.Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page.text());
        assertThat(token.find()).as(page.text()).isTrue();
        return payer.post(path, "_csrf=" + token.group(1)).contentType("application/x-www-form-urlencoded").send();
    }
}
