package io.tender.idempotency;

import com.zaxxer.hikari.HikariDataSource;
import io.tender.TenderApplication;
import io.tender.support.Api;
import io.tender.support.AtOnce;
import io.tender.support.SandboxHold;
import io.tender.support.SecondInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two service instances on one database, as a deployment behind a load balancer runs them: identical requests with
 * one Idempotency-Key, spread over both, make one redemption and one provider call, and every other answer, given
 * while that one provably still runs, is a 409 from either instance.
 */
class TwoInstancesIT {

    private static final String KEY = "sk_test_" + "2b1a0f9e8d7c6b5a49382716a5b4c3d2";

    @TempDir
    Path dataDir;

    @Test
    void identicalRequestsSpreadOverTwoInstancesMakeOneRedemptionAndOneProviderCall() throws Exception {
        // The first instance starts the embedded PostgreSQL; the second uses it as an external database.
        try (ConfigurableApplicationContext first = new SpringApplicationBuilder(TenderApplication.class).run(
                "--server.port=0", "--management.server.port=0", "--tender.data-dir=" + dataDir.resolve("first"),
                "--tender.bootstrap-keys=two-instances:" + KEY, "--tender.master-key=", "--tender.admin-token=");
             ConfigurableApplicationContext second = SecondInstance.start(first, dataDir.resolve("second"),
                     "--tender.bootstrap-keys=two-instances:" + KEY)) {
            HikariDataSource database = first.getBean(HikariDataSource.class);
            List<Api> instances = List.of(api(first), api(second));
            JdbcClient jdbc = JdbcClient.create(database);

            String key = "two-instances-1";
            // With an amount the sandbox redeems in a single call, so "one provider call" is exactly one row.
            String body = oneVoucher(validPin(), 1500);
            // The request that gets the key is held at the provider until the 23 others have answered.
            List<Api.Response> responses = AtOnce.sendWhileOneIsHeld(24, i ->
                    instances.get(i % 2).post("/collect/redemptions", body).idempotencyKey(key).send(),
                    SandboxHold.on(database));

            List<Api.Response> originals = responses.stream()
                    .filter(r -> r.status() == 201 && r.header("Idempotent-Replayed") == null).toList();
            assertThat(originals).as("exactly one request ran, on either instance").hasSize(1);
            byte[] original = originals.getFirst().bytes();
            String id = originals.getFirst().json().get("id").stringValue();
            // Every other request came while it ran: a 409, from both instances.
            Set<Integer> conflictedOn = new HashSet<>();
            for (int i = 0; i < responses.size(); i++) {
                Api.Response r = responses.get(i);
                if (r != originals.getFirst()) {
                    assertThat(r.status()).as(r.toString()).isEqualTo(409);
                    assertThat(r.json().get("code").stringValue()).isEqualTo("conflict");
                    conflictedOn.add(i % 2);
                }
            }
            assertThat(conflictedOn).as("instances that answered 409 while the first request ran").containsExactly(0, 1);
            assertThat(jdbc.sql("select count(*) from redemptions where idempotency_key = ?").param(key)
                    .query(Long.class).single()).isEqualTo(1);
            assertThat(jdbc.sql("select count(*) from sandbox_operations where operation_key like ?")
                    .param(id + ":%").query(Long.class).single()).as("provider calls").isEqualTo(1);
            // Afterwards both instances replay the same bytes.
            for (Api instance : instances) {
                var replay = instance.post("/collect/redemptions", body).idempotencyKey(key).send();
                assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
                assertThat(replay.bytes()).isEqualTo(original);
            }
        }
    }

    private static Api api(ConfigurableApplicationContext context) {
        return new Api(SecondInstance.baseUrl(context), KEY);
    }
}
