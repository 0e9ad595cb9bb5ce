package io.tender.redemption;

import io.tender.support.Api;
import io.tender.support.LiveProvidersIntegrationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
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
 * Several recovery jobs on one database (as several service instances would run them) finish each stuck
 * redemption exactly once: one reversal call per redemption, one final event, no lost or doubled work.
 */
class ConcurrentRecoveryIT extends LiveProvidersIntegrationTest {

    private static final String RESERVED = "{\"result\":\"approved\",\"amount\":10000,\"currency\":\"ZAR\",\"reference\":{}}";

    @Autowired
    private RedemptionRecovery recovery;

    @Test
    void recoveryJobsRacingForTheSameRedemptionsFinishEachOnce() throws Exception {
        Api live = merchants.create().live();
        PROVIDER.stubFor(post("/one_voucher/reserve").willReturn(okJson(RESERVED)));
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(aResponse().withStatus(503)));
        PROVIDER.stubFor(get(urlPathMatching("/one_voucher/operations/.*")).willReturn(aResponse().withStatus(503)));
        PROVIDER.stubFor(post("/one_voucher/reverse").willReturn(okJson(RESERVED)));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            var response = live.post("/collect/redemptions", oneVoucher(validPin())).send();
            assertThat(response.status()).isEqualTo(504);
            ids.add(response.json().get("detail").stringValue().replaceAll(".*(rdm_[a-f0-9]{24}).*", "$1"));
        }
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
                        recovery.runOnce();
                    }
                    return null;
                });
            }
            start.countDown();
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> ids.stream().allMatch(id ->
                live.get("/collect/redemptions/" + id).send().json().get("status").stringValue().equals("failed")));
        for (String id : ids) {
            var r = live.get("/collect/redemptions/" + id).send().json();
            assertThat(r.get("reversed_amount").longValue()).isEqualTo(10000);
            assertThat(r.get("operations")).hasSize(3);
            assertThat(jdbc.sql("select count(*) from outbox where aggregateid = ? and type = 'redemption.failed'")
                    .param(id).query(Integer.class).single()).isEqualTo(1);
        }
        PROVIDER.verify(ids.size(), postRequestedFor(urlEqualTo("/one_voucher/reverse")));
        PROVIDER.verify(ids.size(), postRequestedFor(urlEqualTo("/one_voucher/confirm")));
    }
}
