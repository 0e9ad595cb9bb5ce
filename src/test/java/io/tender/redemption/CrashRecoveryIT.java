package io.tender.redemption;

import io.tender.support.Api;
import io.tender.support.ServiceProcess;
import io.tender.support.Vouchers;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged service, in live mode against a slow provider simulator, is killed with SIGKILL while concurrent
 * redemptions are in flight (among them five requests for one voucher), at a moment the provider's ledger shows,
 * then started again on the same data. Afterwards: every redemption is final, our records and the provider's ledger
 * agree, no voucher is confirmed twice in our records (the contested one exactly once), and every Idempotency-Key
 * maps to one redemption and replays its final answer.
 */
class CrashRecoveryIT {

    private static final String KEY = "sk_live_" + "c4a5h".repeat(5);

    private record Attempt(String key, String body) {
    }

    @Test
    void aServiceKilledMidRedemptionFinishesEveryRedemptionConsistentlyWithTheProvider() throws Exception {
        Path root = Files.createTempDirectory("tender-crash-");
        int simulatorPort = ServiceProcess.freePort();
        int servicePort = ServiceProcess.freePort();
        Map<String, String> serviceEnvironment = Map.of(
                "TENDER_DATA_DIR", root.resolve("service").toString(),
                "TENDER_BOOTSTRAP_KEYS", "crash:" + KEY,
                "TENDER_PROVIDERS_LIVE_BASEURL", "http://localhost:" + simulatorPort);
        String[] serviceArguments = {"--tender.redemptions.recovery.interval=PT0.5S", "--tender.redemptions.lease=PT8S",
                "--tender.redemptions.recovery.min-age=PT2S", "--tender.providers.live.read-timeout=5s"};

        try (var simulator = ServiceProcess.simulator("simulator", simulatorPort, Map.of(
                     "TENDER_DATA_DIR", root.resolve("simulator").toString(), "SIMULATOR_DELAY", "PT0.3S")).start();
             var service = ServiceProcess.service("service", servicePort, serviceEnvironment, serviceArguments).start()) {
            Api api = new Api(service.baseUrl(), KEY);

            // Full and partial redeems and an already-used voucher; in flight, also one voucher wanted by five
            // requests at once.
            List<Attempt> attempts = new ArrayList<>();
            String contested = Vouchers.validPin();
            for (int i = 0; i < 36; i++) {
                String body = switch (i % 6) {
                    case 0, 1, 2 -> Vouchers.oneVoucher(Vouchers.validPin());
                    case 3 -> Vouchers.oneVoucher(Vouchers.validPin(), 2500);
                    case 4 -> Vouchers.oneVoucher(Vouchers.pin("0003"));
                    default -> Vouchers.oneVoucher(i < 6 ? Vouchers.validPin() : contested);
                };
                attempts.add(new Attempt("crash-" + i, body));
            }
            // A few finish before the crash; the rest, the contest among them, are in flight when it comes.
            for (Attempt attempt : attempts.subList(0, 6)) {
                assertThat(api.post("/collect/redemptions", attempt.body()).idempotencyKey(attempt.key()).send().status())
                        .isEqualTo(201);
            }
            Api provider = new Api(simulator.baseUrl(), null);
            Instant killedAt;
            try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
                CountDownLatch start = new CountDownLatch(1);
                for (Attempt attempt : attempts.subList(6, attempts.size())) {
                    pool.submit(() -> {
                        try {
                            start.await();
                            api.post("/collect/redemptions", attempt.body()).idempotencyKey(attempt.key()).send();
                        } catch (RuntimeException | InterruptedException killed) {
                            // the service died under this request
                        }
                    });
                }
                start.countDown();
                // The kill comes on what the provider's ledger shows, not after a guessed time: the contested
                // voucher reserved by at least two of its requests, and at least three redemptions caught between
                // an approved reserve and their confirm.
                awaitLedger(provider, operations -> reservesOfOneVoucher(operations) >= 2
                        && betweenReserveAndConfirm(operations) >= 3);
                service.kill();
                killedAt = Instant.now();
                pool.shutdownNow();
                pool.awaitTermination(30, TimeUnit.SECONDS);
            }

            try (var restarted = ServiceProcess.service("service-restarted", servicePort, serviceEnvironment, serviceArguments).start()) {
                // Every key ends in one final redemption and replays it.
                Map<String, JsonNode> finalByKey = new HashMap<>();
                for (Attempt attempt : attempts) {
                    finalByKey.put(attempt.key(),
                            RedemptionAssertions.awaitFinalAnswer(api, attempt.key(), attempt.body()));
                }
                for (Attempt attempt : attempts) {
                    var replay = api.post("/collect/redemptions", attempt.body()).idempotencyKey(attempt.key()).send();
                    assertThat(replay.status()).isEqualTo(201);
                    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
                    assertThat(replay.json()).isEqualTo(finalByKey.get(attempt.key()));
                }

                // Every redemption the service holds is final, and each belongs to exactly one key.
                List<JsonNode> all = new ArrayList<>();
                api.get("/collect/redemptions?limit=100").send().json().get("data").forEach(all::add);
                assertThat(all).allSatisfy(r -> assertThat(r.get("status").stringValue()).isIn("confirmed", "failed"));
                Set<String> ids = new HashSet<>();
                finalByKey.values().forEach(r -> ids.add(r.get("id").stringValue()));
                assertThat(ids).hasSize(attempts.size());
                assertThat(all).hasSize(attempts.size());
                // The kill really came mid-work: some redemptions begun before it were finished only by the
                // restarted service (a request that never reached the first one is created afresh, and does not count).
                assertThat(all).filteredOn(r -> Instant.parse(r.get("created_at").stringValue()).isBefore(killedAt)
                                && Instant.parse(r.get("updated_at").stringValue()).isAfter(killedAt))
                        .as("redemptions begun before the kill and finished after it").isNotEmpty();

                // Our own records: no voucher confirmed for two keys, and the contest, which was under way when the
                // kill came (at least two of its redemptions begun before it), has exactly one winner.
                Map<String, List<JsonNode>> byPin = new HashMap<>();
                for (Attempt attempt : attempts) {
                    byPin.computeIfAbsent(Api.JSON.readTree(attempt.body()).get("source").get("pin").stringValue(),
                            pin -> new ArrayList<>()).add(finalByKey.get(attempt.key()));
                }
                assertThat(byPin).allSatisfy((pin, redemptions) -> assertThat(redemptions)
                        .filteredOn(r -> r.get("status").stringValue().equals("confirmed")).hasSizeLessThanOrEqualTo(1));
                List<JsonNode> contest = byPin.get(contested);
                assertThat(contest).hasSize(5);
                assertThat(contest).filteredOn(r -> Instant.parse(r.get("created_at").stringValue()).isBefore(killedAt))
                        .as("contested redemptions begun before the kill").hasSizeGreaterThanOrEqualTo(2);
                assertThat(contest).filteredOn(r -> r.get("status").stringValue().equals("confirmed"))
                        .as("contested redemptions confirmed").hasSize(1);
                assertThat(contest).filteredOn(r -> r.get("status").stringValue().equals("failed"))
                        .as("contested redemptions failed").hasSize(4)
                        .allSatisfy(r -> assertThat(r.has("redeemed_amount") ? r.get("redeemed_amount").longValue() : 0)
                                .as("redeemed by the failed %s", r.get("id")).isZero());

                // The provider's ledger agrees with us.
                JsonNode ledger = provider.get("/_ledger").send().json().get("operations");
                Map<String, JsonNode> byOperation = new HashMap<>();
                Map<String, Integer> confirmsPerVoucher = new HashMap<>();
                for (JsonNode entry : ledger) {
                    byOperation.put(entry.get("operation_key").stringValue(), entry);
                    if (entry.get("kind").stringValue().equals("confirm") && entry.get("result").stringValue().equals("approved")) {
                        confirmsPerVoucher.merge(entry.get("voucher").stringValue(), 1, Integer::sum);
                    }
                }
                for (JsonNode r : all) {
                    String id = r.get("id").stringValue();
                    // A confirm the recovery job found never received (fenced) goes again under a reissued key,
                    // <id>:confirm~2; the approved one is the one that counts.
                    JsonNode confirm = byOperation.entrySet().stream()
                            .filter(e -> e.getKey().startsWith(id + ":confirm"))
                            .map(Map.Entry::getValue)
                            .filter(e -> e.get("result").stringValue().equals("approved"))
                            .findFirst().orElse(byOperation.get(id + ":confirm"));
                    // Likewise every reversal of it (<id>:reverse, a reissued ~N, a later one :N): what was approved
                    // is what moved back.
                    long reversedAtProvider = byOperation.entrySet().stream()
                            .filter(e -> e.getKey().startsWith(id + ":reverse"))
                            .map(Map.Entry::getValue)
                            .filter(e -> e.get("result").stringValue().equals("approved"))
                            .mapToLong(e -> e.get("amount").longValue()).sum();
                    assertThat(r.get("reversed_amount").longValue()).as("reversed_amount of %s", id)
                            .isEqualTo(reversedAtProvider);
                    if (r.get("status").stringValue().equals("confirmed")) {
                        assertThat(confirm).as("provider confirm of %s", id).isNotNull();
                        assertThat(confirm.get("result").stringValue()).isEqualTo("approved");
                        assertThat(confirm.get("amount").longValue()).isEqualTo(r.get("redeemed_amount").longValue());
                        assertThat(reversedAtProvider).as("confirmed %s was reversed at the provider", id).isZero();
                    } else if (confirm != null && confirm.get("result").stringValue().equals("approved")) {
                        assertThat(reversedAtProvider).as("failed %s moved value without a reversal", id)
                                .isEqualTo(confirm.get("amount").longValue());
                    }
                }
                // (The sandbox itself refuses a second redeem of a voucher; this only checks its ledger.)
                assertThat(confirmsPerVoucher.values()).allSatisfy(count -> assertThat(count).isEqualTo(1));
            }
        }
    }

    /** Polls the provider simulator's ledger until its operations satisfy the state, at most a minute. */
    private static void awaitLedger(Api provider, Predicate<JsonNode> state) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        JsonNode operations;
        while (!state.test(operations = provider.get("/_ledger").send().json().get("operations"))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the provider's ledger never reached the state to kill on: " + operations);
            }
            Thread.sleep(10);
        }
    }

    /** The most reserves any one voucher has had (each voucher but the contested one is used once). */
    private static long reservesOfOneVoucher(JsonNode operations) {
        Map<String, Long> reserves = new HashMap<>();
        for (JsonNode entry : operations) {
            if (entry.get("kind").stringValue().equals("reserve")) {
                reserves.merge(entry.get("voucher").stringValue(), 1L, Long::sum);
            }
        }
        return reserves.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /** Redemptions whose reserve the provider approved and whose confirm it has not seen yet. */
    private static long betweenReserveAndConfirm(JsonNode operations) {
        Set<String> reserved = new HashSet<>();
        Set<String> confirming = new HashSet<>();
        for (JsonNode entry : operations) {
            String key = entry.get("operation_key").stringValue();
            String redemption = key.substring(0, key.indexOf(':'));
            if (entry.get("kind").stringValue().equals("reserve") && entry.get("result").stringValue().equals("approved")) {
                reserved.add(redemption);
            } else if (key.startsWith(redemption + ":confirm")) {
                confirming.add(redemption);
            }
        }
        reserved.removeAll(confirming);
        return reserved.size();
    }
}
