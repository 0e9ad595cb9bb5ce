package io.tender;

import io.tender.support.Api;
import io.tender.support.ChangePins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Nothing a client was told succeeded may be lost after a crash or restart": the service is started, used, stopped
 * and started again on the same data directory (its own embedded PostgreSQL and master key).
 */
class RestartIT {

    private static final String KEY = "sk_test_" + "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

    @TempDir
    Path dataDir;

    private ConfigurableApplicationContext start() {
        // Command-line arguments outrank application.yml (and any TENDER_* variables it reads).
        return new SpringApplicationBuilder(TenderApplication.class).run(
                "--server.port=0",
                "--management.server.port=0",
                "--tender.data-dir=" + dataDir,
                "--tender.bootstrap-keys=restart:" + KEY,
                "--tender.master-key=",
                "--tender.admin-token=");
    }

    private static Api api(ConfigurableApplicationContext context) {
        return new Api("http://localhost:" + context.getEnvironment().getProperty("local.server.port"), KEY);
    }

    @Test
    void redemptionsIdempotencyKeysAndUsedVouchersSurviveARestart() {
        String pin = validPin();
        String body = oneVoucher(pin);
        Api.Response first;
        JsonNode partial;
        try (ConfigurableApplicationContext context = start()) {
            Api api = api(context);
            first = api.post("/collect/redemptions", body).idempotencyKey("restart-1").send();
            assertThat(first.status()).as(first.toString()).isEqualTo(201);
            assertThat(first.json().get("status").stringValue()).isEqualTo("confirmed");
            partial = api.post("/collect/redemptions", oneVoucher(validPin(), 2500)).send().json();
            assertThat(partial.get("change_voucher").get("amount").longValue()).isEqualTo(7500);
        }
        assertThat(Files.exists(dataDir.resolve("master.key"))).isTrue();
        assertThat(Files.isDirectory(dataDir.resolve("postgres"))).isTrue();

        try (ConfigurableApplicationContext context = start()) {
            Api api = api(context);
            String id = first.json().get("id").stringValue();

            // The redemption is there, as it was, for the same key.
            var retrieved = api.get("/collect/redemptions/" + id).send();
            assertThat(retrieved.status()).as(retrieved.toString()).isEqualTo(200);
            assertThat(retrieved.json()).isEqualTo(first.json());
            var partialAgain = api.get("/collect/redemptions/" + partial.get("id").stringValue()).send().json();
            // As any later read shows it: the change voucher's PIN masked (only the create showed it in full).
            assertThat(partialAgain).isEqualTo(ChangePins.maskedLater(partial));

            // The Idempotency-Key still replays the original bytes.
            var replay = api.post("/collect/redemptions", body).idempotencyKey("restart-1").send();
            assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
            assertThat(replay.bytes()).isEqualTo(first.bytes());

            // The voucher is still used, and the change voucher still holds the remainder.
            var again = api.post("/collect/redemptions", body).send().json();
            assertThat(again.get("status").stringValue()).isEqualTo("failed");
            assertThat(again.get("last_error").get("error_code").stringValue()).isEqualTo("BAD_REQUEST");
            var change = api.post("/collect/redemptions",
                    oneVoucher(partial.get("change_voucher").get("pin").stringValue())).send().json();
            assertThat(change.get("status").stringValue()).isEqualTo("confirmed");
            assertThat(change.get("redeemed_amount").longValue()).isEqualTo(7500);

            // And its events are still in the outbox for delivery.
            assertThat(context.getBean(JdbcClient.class).sql("select type from outbox where aggregateid = ? order by created_at, id")
                    .param(id).query(String.class).list())
                    .containsExactly("redemption.created", "redemption.reserved", "redemption.confirmed");
        }
    }
}
