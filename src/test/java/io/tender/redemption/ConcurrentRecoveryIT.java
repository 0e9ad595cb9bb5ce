package io.tender.redemption;

import io.tender.support.Api;
import io.tender.support.LiveProvidersIntegrationTest;
import io.tender.support.SecondInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Several recovery jobs on one database finish each stuck redemption exactly once: one reversal call per redemption,
 * one final event, no lost or doubled work. Four jobs of this instance racing, and the scheduled jobs of two
 * service instances, which share nothing but the database.
 */
class ConcurrentRecoveryIT extends LiveProvidersIntegrationTest {

    private static final String RESERVED = "{\"result\":\"approved\",\"amount\":10000,\"currency\":\"ZAR\",\"reference\":{}}";

    @Autowired
    private RedemptionRecovery recovery;
    @Autowired
    private io.tender.settlement.Janitor janitor;

    @Autowired
    private ApplicationContext context;

    /** Redemptions whose confirm's outcome stays unknown (the create answered 504): their ids. */
    private static List<String> stuck(Api live, int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            var response = live.post("/collect/redemptions", oneVoucher(validPin())).send();
            assertThat(response.status()).as(response.toString()).isEqualTo(504);
            ids.add(response.json().get("detail").stringValue().replaceAll(".*(rdm_[a-f0-9]{24}).*", "$1"));
        }
        return ids;
    }

    /** Waits until every one is failed, then: its confirm reversed in full, and one final event. */
    private void awaitEachReversedWithOneFinalEvent(Api live, List<String> ids, Duration atMost) {
        await().atMost(atMost).until(() -> ids.stream().allMatch(id ->
                live.get("/collect/redemptions/" + id).send().json().get("status").stringValue().equals("failed")));
        for (String id : ids) {
            var r = live.get("/collect/redemptions/" + id).send().json();
            assertThat(r.get("reversed_amount").longValue()).isEqualTo(10000);
            assertThat(r.get("operations")).hasSize(3);
            assertThat(jdbc.sql("select count(*) from outbox where aggregateid = ? and type = 'redemption.failed'")
                    .param(id).query(Integer.class).single()).isEqualTo(1);
        }
    }

    /**
     * The provider (under {@code /} for this instance, {@code /second} for a second one): reserves approved, confirms
     * and their status 503, reversals approved after {@code reversalMillis}. Only the confirms' outcomes stay unknown:
     * should a reserve's answer be too slow on a loaded machine, its status says it was approved (as the provider
     * would), so every redemption still reaches its confirm.
     */
    private static void confirmsStayUnknown(int reversalMillis) {
        PROVIDER.stubFor(post(urlPathMatching("(/second)?/one_voucher/reserve")).willReturn(okJson(RESERVED)));
        PROVIDER.stubFor(post(urlPathMatching("(/second)?/one_voucher/confirm")).willReturn(aResponse().withStatus(503)));
        PROVIDER.stubFor(get(urlPathMatching("(/second)?/one_voucher/operations/.*")).willReturn(aResponse().withStatus(503)));
        PROVIDER.stubFor(get(urlPathMatching("(/second)?/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)reserve"))
                .atPriority(1).willReturn(okJson(RESERVED)));
        PROVIDER.stubFor(post(urlPathMatching("(/second)?/one_voucher/reverse"))
                .willReturn(okJson(RESERVED).withFixedDelay(reversalMillis)));
    }

    @Test
    void recoveryJobsRacingForTheSameRedemptionsFinishEachOnce() throws Exception {
        Api live = merchants.create().live();
        confirmsStayUnknown(0);
        List<String> ids = stuck(live, 6);
        // Past give-up-after: every job that takes one of them reverses its unknown confirm.
        for (String id : ids) {
            jdbc.sql("update redemptions set created_at = created_at - interval '2 hours' where id = ?").param(id).update();
        }

        var start = new CountDownLatch(1);
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int job = 0; job < 4; job++) {
                pool.submit(() -> {
                    start.await();
                    for (int round = 0; round < 5; round++) {
                        janitor.runOnce(recovery);
                    }
                    return null;
                });
            }
            start.countDown();
        }

        awaitEachReversedWithOneFinalEvent(live, ids, Duration.ofSeconds(30));
        PROVIDER.verify(ids.size(), postRequestedFor(urlEqualTo("/one_voucher/reverse")));
        PROVIDER.verify(ids.size(), postRequestedFor(urlEqualTo("/one_voucher/confirm")));
    }

    /**
     * The second instance calls the same WireMock server under {@code /second}, so each call shows which instance made
     * it. Both run their recovery job every 200 ms on anything untouched for a second; 30 stuck redemptions are more
     * than one batch (20), and each reversal takes 300 ms, so the job that takes the first batch is still at it when
     * the other instance's job takes the rest.
     */
    @Test
    void theRecoveryJobsOfTwoInstancesFinishEachStuckRedemptionOnce(@TempDir Path dataDir) throws Exception {
        Api live = merchants.create().live();
        confirmsStayUnknown(300);

        try (ConfigurableApplicationContext second = SecondInstance.start(context, dataDir,
                "--tender.providers.live.base-url=" + PROVIDER.baseUrl() + "/second",
                "--tender.providers.live.api-key=provider-secret",
                "--tender.providers.live.read-timeout=1500ms",
                "--tender.providers.live.connect-timeout=500ms",
                "--tender.providers.live.resilience.minimum-calls=1000",
                "--tender.providers.live.resilience.sliding-window=1000",
                "--tender.providers.live.resilience.read-attempts=2",
                "--tender.providers.live.resilience.read-retry-wait=50ms",
                "--tender.redemptions.recovery.interval=PT0.2S",
                "--tender.redemptions.recovery.min-age=PT1S",
                "--tender.redemptions.recovery.give-up-after=PT1H",
                "--tender.redemptions.reservation-ttl=PT1H")) {
            List<String> ids = stuck(live, 30);
            // Past give-up-after, all at once: whichever job takes one reverses its unknown confirm.
            jdbc.sql("update redemptions set created_at = created_at - interval '2 hours' where id in (:ids)")
                    .param("ids", ids).update();

            awaitEachReversedWithOneFinalEvent(live, ids, Duration.ofSeconds(90));
            for (String id : ids) {
                assertThat(PROVIDER.findAll(postRequestedFor(urlPathMatching("(/second)?/one_voucher/reverse"))
                        .withRequestBody(matchingJsonPath("$.reversed_key", equalTo(id + ":confirm")))))
                        .as("reversals of %s", id).hasSize(1);
            }
            PROVIDER.verify(ids.size(), postRequestedFor(urlPathMatching("(/second)?/one_voucher/reverse")));
            PROVIDER.verify(ids.size(), postRequestedFor(urlEqualTo("/one_voucher/confirm")));
            assertThat(PROVIDER.findAll(postRequestedFor(urlEqualTo("/one_voucher/reverse")))).as("reversals by this instance")
                    .isNotEmpty();
            assertThat(PROVIDER.findAll(postRequestedFor(urlEqualTo("/second/one_voucher/reverse"))))
                    .as("reversals by the second instance").isNotEmpty();
        }
    }
}
