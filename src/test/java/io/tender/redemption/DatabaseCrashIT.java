package io.tender.redemption;

import io.tender.support.Api;
import io.tender.support.ChangePins;
import io.tender.support.ServiceProcess;
import io.tender.support.Vouchers;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged service in test mode (the sandbox providers, whose books share the service's database and commit
 * without waiting for the disk) under concurrent redemptions, then its PostgreSQL killed with SIGKILL, every process
 * of it, so that what was not yet written from PostgreSQL's memory is gone; then the service killed too and
 * started again on the same data. Afterwards every redemption a client was told about is there as it was told, every
 * Idempotency-Key ends in one final redemption, and the sandbox's books agree with ours: a confirmed voucher is used,
 * a failed one is not, and a change voucher a client was given can be spent.
 */
class DatabaseCrashIT {

    private static final String KEY = "sk_test_" + "d6b7k".repeat(5);

    /** One request: what was sent, and what came back before the crash (null: no answer, or not a 201). */
    private record Attempt(String key, String pin, String body, JsonNode created) {
    }

    @Test
    void aDatabaseKilledMidRedemptionLosesNothingAClientWasToldAndTheSandboxAgrees() throws Exception {
        Path root = Files.createTempDirectory("tender-db-crash-");
        int port = ServiceProcess.freePort();
        Map<String, String> environment = Map.of(
                "TENDER_DATA_DIR", root.resolve("service").toString(),
                "TENDER_BOOTSTRAP_KEYS", "dbcrash:" + KEY);
        String[] arguments = {"--tender.redemptions.recovery.interval=PT0.5S", "--tender.redemptions.lease=PT8S",
                "--tender.redemptions.recovery.min-age=PT2S"};

        Api api = new Api("http://localhost:" + port, KEY);
        var attempts = new ConcurrentLinkedQueue<Attempt>();
        var answered = new AtomicInteger();
        var stop = new AtomicBoolean();
        Instant killedAt;
        // Closing a killed process does nothing; closing one left running (a failure before the kill) stops it and
        // its PostgreSQL.
        try (var service = ServiceProcess.service("db-crash", port, environment, arguments).start();
             var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int worker = 0; worker < 16; worker++) {
                int w = worker;
                pool.submit(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        String pin = Vouchers.validPin();
                        // Every fourth is a partial redeem, whose change voucher the sandbox issues in its confirm.
                        String body = i % 4 == 3 ? Vouchers.oneVoucher(pin, 2500) : Vouchers.oneVoucher(pin);
                        String key = "dbcrash-" + w + "-" + i;
                        JsonNode created = null;
                        try {
                            var response = api.post("/collect/redemptions", body).idempotencyKey(key).send();
                            if (response.status() == 201) {
                                created = response.json();
                                answered.incrementAndGet();
                            }
                        } catch (RuntimeException noAnswer) {
                            // the database or the service died under this request
                        }
                        attempts.add(new Attempt(key, pin, body, created));
                    }
                });
            }
            try {
                Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
                while (answered.get() < 60 && Instant.now().isBefore(deadline)) {
                    Thread.sleep(20);
                }
                killPostgres(root.resolve("service"));
                killedAt = Instant.now();
                service.kill();
            } finally {
                stop.set(true);
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(90, TimeUnit.SECONDS)).isTrue();
        }
        List<Attempt> told = attempts.stream().filter(a -> a.created() != null).toList();
        assertThat(told).as("redemptions answered 201 before the crash").hasSizeGreaterThanOrEqualTo(60);

        try (var restarted = ServiceProcess.service("db-crash-restarted", port, environment, arguments).start()) {
            // What a client was told is there, as it was told: the redemption, and the answer under its key.
            for (Attempt attempt : told) {
                String id = attempt.created().get("id").stringValue();
                var retrieved = api.get("/collect/redemptions/" + id).send();
                assertThat(retrieved.status()).as("%s, answered before the crash", id).isEqualTo(200);
                // A later read masks a change voucher's PIN; the replay below shows it as the create did.
                assertThat(retrieved.json()).isEqualTo(ChangePins.maskedLater(attempt.created()));
                var replay = api.post("/collect/redemptions", attempt.body()).idempotencyKey(attempt.key()).send();
                assertThat(replay.status()).isEqualTo(201);
                assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
                assertThat(replay.json()).isEqualTo(attempt.created());
            }
            // Every key ends in one final redemption (the recovery job finishes the ones cut short), and the sandbox
            // agrees with it: the voucher of a confirmed redemption is used, that of a failed one can still be spent.
            int finishedByTheRestart = 0;
            for (Attempt attempt : attempts) {
                JsonNode last = RedemptionAssertions.awaitFinalAnswer(api, attempt.key(), attempt.body());
                if (attempt.created() == null && Instant.parse(last.get("created_at").stringValue()).isBefore(killedAt)) {
                    finishedByTheRestart++;
                }
                var again = api.post("/collect/redemptions", Vouchers.oneVoucher(attempt.pin()))
                        .idempotencyKey(attempt.key() + "-again").send();
                assertThat(again.status()).isEqualTo(201);
                if (last.get("status").stringValue().equals("confirmed")) {
                    assertThat(again.json().get("status").stringValue()).as("voucher of confirmed %s", last.get("id"))
                            .isEqualTo("failed");
                    assertThat(again.json().at("/last_error/error_code").stringValue()).isEqualTo("BAD_REQUEST");
                    JsonNode change = last.get("change_voucher");
                    if (change != null) {
                        var spent = api.post("/collect/redemptions", Vouchers.oneVoucher(change.get("pin").stringValue()))
                                .idempotencyKey(attempt.key() + "-change").send();
                        assertThat(spent.json().get("status").stringValue()).as("change voucher of %s", last.get("id"))
                                .isEqualTo("confirmed");
                        assertThat(spent.json().get("redeemed_amount").longValue()).isEqualTo(7500);
                    }
                } else {
                    assertThat(again.json().get("status").stringValue()).as("voucher of failed %s", last.get("id"))
                            .isEqualTo("confirmed");
                }
            }
            assertThat(finishedByTheRestart).as("redemptions begun before the crash and finished after it")
                    .isPositive();
        }
    }

    /**
     * SIGKILL to every process of the service's PostgreSQL: no process writes out what it holds in memory, as when
     * the machine loses power (the operating system's cache survives here, which only makes it milder). The
     * postmaster first, so that it starts nothing new, then every process it had started.
     */
    private static void killPostgres(Path dataDir) throws Exception {
        long pid = Long.parseLong(Files.readAllLines(dataDir.resolve("postgres").resolve("postmaster.pid")).getFirst().trim());
        ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
        List<ProcessHandle> processes = new ArrayList<>(List.of(postmaster));
        processes.addAll(postmaster.descendants().toList());
        processes.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle process : processes) {
            process.onExit().get(30, TimeUnit.SECONDS);
        }
    }
}
