package io.tender.idempotency;

import com.zaxxer.hikari.HikariDataSource;
import io.tender.TenderApplication;
import io.tender.support.Api;
import io.tender.support.AtOnce;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two service instances on one database, as a deployment behind a load balancer runs them: identical requests with
 * one Idempotency-Key, spread over both, make one redemption and one provider call, and every answer is that
 * redemption's or a 409 while it runs.
 */
class TwoInstancesIT {

    private static final String KEY = "sk_test_" + "2b1a0f9e8d7c6b5a49382716a5b4c3d2";

    @TempDir
    Path dataDir;

    @Test
    void identicalRequestsSpreadOverTwoInstancesMakeOneRedemptionAndOneProviderCall() throws Exception {
        // The first instance starts the embedded PostgreSQL; the second uses it as an external database, with the
        // same master key (instances sharing a database must share it; start-up refuses an external database
        // without one).
        try (ConfigurableApplicationContext first = new SpringApplicationBuilder(TenderApplication.class).run(
                "--server.port=0", "--management.server.port=0", "--tender.data-dir=" + dataDir.resolve("first"),
                "--tender.bootstrap-keys=two-instances:" + KEY, "--tender.master-key=", "--tender.admin-token=")) {
            HikariDataSource database = first.getBean(HikariDataSource.class);
            String masterKey = Files.readString(dataDir.resolve("first").resolve("master.key")).trim();
            try (ConfigurableApplicationContext second = new SpringApplicationBuilder(TenderApplication.class).run(
                    "--server.port=0", "--management.server.port=0", "--tender.data-dir=" + dataDir.resolve("second"),
                    "--spring.datasource.url=" + database.getJdbcUrl(),
                    "--spring.datasource.username=" + database.getUsername(),
                    "--spring.datasource.password=" + (database.getPassword() == null ? "" : database.getPassword()),
                    "--tender.bootstrap-keys=two-instances:" + KEY, "--tender.master-key=" + masterKey,
                    "--tender.admin-token=")) {
                List<Api> instances = List.of(api(first), api(second));
                JdbcClient jdbc = JdbcClient.create(database);

                String key = "two-instances-1";
                // With an amount the sandbox redeems in a single call, so "one provider call" is exactly one row.
                String body = oneVoucher(validPin(), 1500);
                List<Api.Response> responses = AtOnce.send(24, i ->
                        instances.get(i % 2).post("/collect/redemptions", body).idempotencyKey(key).send());

                List<Api.Response> originals = responses.stream()
                        .filter(r -> r.status() == 201 && r.header("Idempotent-Replayed") == null).toList();
                assertThat(originals).as("exactly one request ran, on either instance").hasSize(1);
                byte[] original = originals.getFirst().bytes();
                String id = originals.getFirst().json().get("id").stringValue();
                assertThat(responses).allSatisfy(r -> {
                    if (r.status() == 201) {
                        assertThat(r.bytes()).isEqualTo(original);
                    } else {
                        assertThat(r.status()).as(r.toString()).isEqualTo(409);
                        assertThat(r.json().get("code").stringValue()).isEqualTo("conflict");
                    }
                });
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
    }

    private static Api api(ConfigurableApplicationContext context) {
        return new Api("http://localhost:" + context.getEnvironment().getProperty("local.server.port"), KEY);
    }
}
