package io.tender.subscription;

import io.tender.checkout.Checkout;
import com.zaxxer.hikari.HikariDataSource;
import io.tender.TenderApplication;
import io.tender.support.Api;
import io.tender.support.SecondInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances on one PostgreSQL run the subscriptions' schedule over the same due periods at the same time, one
 * period per claim, as two machines behind a load balancer would (Lago #2681, node-cron #543: one cron per instance
 * charging twice). Every period is charged exactly once: one payment, one processor call under its derived key.
 */
class SubscriptionSchedulerIT {

    private static final String KEY = "sk_test_" + "5ched".repeat(5) + "0123456";
    private static final int SUBSCRIPTIONS = 40;
    /** The timers never fire during the test: the test runs each instance's schedule itself, at the same moment. */
    private static final String[] SCHEDULE = {"--tender.series.scheduler.interval=PT1H",
            "--tender.series.scheduler.batch=1", "--tender.series.scheduler.concurrency=4"};

    @TempDir
    Path dataDir;

    @Test
    void twoInstancesRunningTheSameDuePeriodsChargeEachExactlyOnce() throws Exception {
        List<String> firstArguments = new ArrayList<>(List.of("--server.port=0", "--management.server.port=0",
                "--tender.data-dir=" + dataDir.resolve("first"), "--tender.bootstrap-keys=schedule:" + KEY,
                "--tender.master-key=", "--tender.admin-token="));
        firstArguments.addAll(List.of(SCHEDULE));
        try (ConfigurableApplicationContext first = new SpringApplicationBuilder(TenderApplication.class)
                .run(firstArguments.toArray(String[]::new));
             ConfigurableApplicationContext second = SecondInstance.start(first, dataDir.resolve("second"), SCHEDULE)) {
            JdbcClient jdbc = JdbcClient.create(first.getBean(HikariDataSource.class));
            Series series = new Series(new Api(SecondInstance.baseUrl(first), KEY), first.getBean(Checkout.class));
            LocalDate today = LocalDate.now(ZoneId.of("Africa/Johannesburg"));
            List<String> subscriptions = new ArrayList<>();
            for (int i = 0; i < SUBSCRIPTIONS; i++) {
                JsonNode subscription = series.subscription(series.customer(), 1000 + i, "\"interval\":\"monthly\","
                        + "\"start_date\":\"" + today + "\",\"notice_days\":0", "4242424242424242");
                subscriptions.add(subscription.get("id").stringValue());
            }

            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> runs = new ArrayList<>();
            try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
                for (ConfigurableApplicationContext instance : List.of(first, second)) {
                    SubscriptionScheduler scheduler = instance.getBean(SubscriptionScheduler.class);
                    runs.add(threads.submit(() -> {
                        go.await();
                        return scheduler.run();
                    }));
                }
                go.countDown();
            }
            int byFirst = runs.get(0).get();
            int bySecond = runs.get(1).get();

            assertThat(byFirst + bySecond).as("charges made by both").isEqualTo(SUBSCRIPTIONS);
            assertThat(byFirst).as("charges made by the first instance").isPositive();
            assertThat(bySecond).as("charges made by the second instance").isPositive();
            for (String id : subscriptions) {
                assertThat(jdbc.sql("select count(*) from payments where subscription_id = ?").param(id)
                        .query(Long.class).single()).as("payments of %s", id).isEqualTo(1);
                assertThat(jdbc.sql("select count(*) from sandbox_processor_operations where operation_key like ?")
                        .param(id + ":%").query(Long.class).single()).as("processor calls for %s", id).isEqualTo(1);
                JsonNode charged = series.collect.get("/collect/subscriptions/" + id);
                assertThat(charged.get("status").stringValue()).isEqualTo("active");
                assertThat(charged.get("current_period").get("start").stringValue()).isEqualTo(today.toString());
            }
            // A run after both finds nothing more to do.
            assertThat(second.getBean(SubscriptionScheduler.class).run()).isZero();
        }
    }
}
