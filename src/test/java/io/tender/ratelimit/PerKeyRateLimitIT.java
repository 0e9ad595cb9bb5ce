package io.tender.ratelimit;

import io.tender.support.Api;
import io.tender.support.IntegrationTestSupport;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;

import static io.tender.support.ProblemAssertions.assertProblem;
import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limit on requests per key (decisions §9), set low here (5 at once, 1 a second; its default of 2000 at once and
 * 1000 a second cannot be reached by a test on a shared machine): the key that is over it is refused with 429 before
 * anything runs, its Idempotency-Key stays unused, and other keys (of the same merchant too) are not affected.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
        "tender.bootstrap-keys=",
        "tender.rate-limits.per-key.per-second=1",
        "tender.rate-limits.per-key.burst=5",
})
class PerKeyRateLimitIT extends IntegrationTestSupport {

    private static final Path DATA_DIR = temporaryDataDirectory("per-key-limit");

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
    }

    private long stored(String table, Merchant merchant) {
        return jdbc.sql("select count(*) from " + table + " where merchant_id = ?").param(merchant.id())
                .query(Long.class).single();
    }

    @Test
    void aKeyOverItsLimitIsRefusedWithoutEffectAndPassesAgainAfterRetryAfter() throws InterruptedException {
        Merchant merchant = merchants.create();
        Merchant other = merchants.create();
        Api key = merchant.test();

        // Creates, each with its own Idempotency-Key, until the key is over its limit.
        long start = System.nanoTime();
        int passed = 0;
        Api.Response refused;
        while ((refused = key.post("/collect/redemptions", oneVoucher(validPin()))
                .idempotencyKey("per-key-" + passed).send()).status() == 201) {
            passed++;
            assertThat(passed).as("a 429 within 50 requests").isLessThan(50);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(passed).isBetween(5, 5 + (int) Math.ceil(seconds) + 1);
        assertProblem(refused, 429, "too_many_requests");
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        assertThat(retryAfter).isBetween(1L, 5L);
        assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"per-key\";q=5;w=5");
        assertThat(refused.header("RateLimit")).isEqualTo("\"per-key\";r=0;t=" + retryAfter);
        // The refused create ran nothing: no redemption, event or Idempotency-Key beyond those that passed.
        assertThat(stored("redemptions", merchant)).isEqualTo(passed);
        assertThat(stored("outbox", merchant)).as("three events per confirmed redemption").isEqualTo(3L * passed);
        assertThat(stored("idempotency_keys", merchant)).isEqualTo(passed);
        assertThat(jdbc.sql("select count(*) from idempotency_keys where merchant_id = ? and idempotency_key = ?")
                .params(merchant.id(), "per-key-" + passed).query(Long.class).single()).isZero();

        // The merchant's other keys, and other merchants, have buckets of their own.
        assertThat(merchant.live().get("/collect/redemptions").send().status()).isEqualTo(200);
        assertThat(other.test().get("/collect/redemptions").send().status()).isEqualTo(200);

        Thread.sleep(retryAfter * 1000 + 100);
        var created = key.post("/collect/redemptions", oneVoucher(validPin())).idempotencyKey("per-key-" + passed).send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.header("Idempotent-Replayed")).as("the refused key ran anew").isNull();
        assertThat(stored("redemptions", merchant)).isEqualTo(passed + 1);
        assertThat(stored("outbox", merchant)).isEqualTo(3L * (passed + 1));
    }
}
