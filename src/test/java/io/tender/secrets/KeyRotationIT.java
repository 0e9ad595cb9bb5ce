package io.tender.secrets;

import io.tender.TenderApplication;
import io.tender.support.Api;
import io.tender.support.IntegrationTestSupport;
import io.tender.support.Merchants;
import io.tender.support.StandardWebhooksVerifier;
import io.tender.support.WebhookReceiver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Decisions §9, master key rotation: values sealed under key A (redemption sources and change-voucher PINs,
 * idempotent responses, sandbox answers, webhook secrets, the keyed-hash keys behind API keys and voucher lookups)
 * still read after a restart with {@code TENDER_MASTER_KEY=B} and {@code TENDER_MASTER_KEY_PREVIOUS=A}; the re-seal
 * job moves every one of them to B (two runs at once share the work), and a start with B alone reads them all.
 * A second rotation, B to C, is left to the scheduled job, which says when nothing is left under the previous key.
 */
@ExtendWith(OutputCaptureExtension.class)
class KeyRotationIT {

    private static final String A = newKey();
    private static final String B = newKey();
    private static final String C = newKey();
    /** Bytea columns that hold keyed hashes (looked up, never opened), not sealed values. */
    // Digests, not sealed values: nothing to re-seal. A dashboard sign-in link's token is 256 random bits, so its
    // plain SHA-256 needs no key; a recovery code's keyed hash is under hash_keys' key, which a rotation keeps.
    private static final Set<String> HASH_COLUMNS = Set.of("api_keys.key_hash", "idempotency_keys.body_hash",
            "sandbox_vouchers.voucher_key", "sandbox_operations.voucher_key", "dashboard_sign_in_links.token_hash",
            "dashboard_recovery_codes.code_hash");
    /** Binary columns that hold nothing secret: Bucket4j's serialized token buckets (decisions §12). */
    private static final Set<String> NOT_SECRET_COLUMNS = Set.of("rate_limit_buckets.state");

    @TempDir
    Path dataDir;

    private final WebhookReceiver receiver = WebhookReceiver.start();

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    private static String newKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    private ConfigurableApplicationContext start(String masterKey, String previous, String resealDelay) {
        return new SpringApplicationBuilder(TenderApplication.class).run(
                "--server.port=0",
                "--management.server.port=0",
                "--tender.data-dir=" + dataDir,
                "--tender.master-key=" + masterKey,
                "--tender.master-key-previous=" + previous,
                "--tender.secrets.reseal-delay=" + resealDelay,
                "--tender.secrets.reseal-interval=PT1S",
                "--tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
                "--tender.bootstrap-keys=",
                "--tender.webhooks.allow-private-targets=true",
                "--tender.webhooks.retry-schedule=PT0.3S,PT0.3S,PT0.3S",
                "--tender.webhooks.poll-interval=PT0.2S",
                "--tender.events.poll-interval=PT0.2S");
    }

    private static String base(ConfigurableApplicationContext context) {
        return "http://localhost:" + context.getEnvironment().getProperty("local.server.port");
    }

    /** What phase one made, to be read back after each restart. */
    private record Made(Api api, String apiKey, JsonNode full, byte[] fullBytes, String fullBody, JsonNode partial,
                        JsonNode retrievedPartial, String endpointId, String secret, String previousSecret) {
    }

    @Test
    void valuesSealedUnderTheOldKeyReadDuringAndAfterARotationAndAreAllResealed(CapturedOutput output) {
        Made made;
        try (var context = start(A, "", "PT1H")) {
            made = makeSealedValues(base(context));
            assertThat(notUnder(context)).as("values not under A, the current key").isZero();
        }

        // B, with A to read what is still under it. The job waits (an hour): first everything must read as it is.
        try (var context = start(B, A, "PT1H")) {
            Api api = new Api(base(context), made.apiKey());
            assertEverythingReads(api, made, context);
            // Under A: the two webhook secrets, two sources, a change voucher, stored responses, sandbox answers and
            // three hash keys; besides whatever the reads above sealed under B.
            long underA = notUnder(context);
            assertThat(underA).isGreaterThanOrEqualTo(10);

            // Two runs at once (as on two instances): each row is re-sealed once, by one of them.
            Resealer resealer = context.getBean(Resealer.class);
            var first = CompletableFuture.supplyAsync(resealer::run);
            var second = CompletableFuture.supplyAsync(resealer::run);
            Resealer.Run one = first.join();
            Resealer.Run two = second.join();
            assertThat(one.resealed() + two.resealed()).isEqualTo(underA);
            assertThat(one.unreadable() + two.unreadable()).isZero();
            assertThat(notUnder(context)).as("values not under B").isZero();
            assertEverythingReads(api, made, context);
        }

        // B alone reads everything.
        try (var context = start(B, "", "PT1H")) {
            assertEverythingReads(new Api(base(context), made.apiKey()), made, context);
        }

        // B to C, left to the scheduled job.
        try (var context = start(C, B, "PT0.5S")) {
            await().atMost(Duration.ofSeconds(60)).until(() -> output.getOut().contains(
                    "none is left under the previous master key, TENDER_MASTER_KEY_PREVIOUS can be removed"));
            assertThat(output.getOut()).containsPattern("re-sealed [1-9][0-9]* values; none is left");
            assertThat(notUnder(context)).isZero();
        }

        try (var context = start(C, "", "PT1H")) {
            Api api = new Api(base(context), made.apiKey());
            assertEverythingReads(api, made, context);
            // The change voucher's PIN is still found in the sandbox's books (a keyed-hash lookup) and redeems.
            var change = api.post("/collect/redemptions",
                    oneVoucher(made.partial().get("change_voucher").get("pin").stringValue())).send();
            assertThat(change.status()).as(change.toString()).isEqualTo(201);
            assertThat(change.json().get("status").stringValue()).isEqualTo("confirmed");
            assertThat(change.json().get("redeemed_amount").longValue()).isEqualTo(7500);
        }
    }

    private Made makeSealedValues(String base) {
        Merchants.Merchant merchant = new Merchants(base, IntegrationTestSupport.ADMIN_TOKEN).create();
        Api api = merchant.test();
        String apiKey = api.key();
        var endpoint = api.post("/webhook_endpoints", "{\"url\":\"" + receiver.url("/hooks")
                + "\",\"enabled_events\":[\"*\"]}").send();
        assertThat(endpoint.status()).as(endpoint.toString()).isEqualTo(201);
        String endpointId = endpoint.json().get("id").stringValue();
        String previousSecret = endpoint.json().get("secret").stringValue();
        var rotated = api.post("/webhook_endpoints/" + endpointId + "/rotate_secret", null).send();
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        String secret = rotated.json().get("secret").stringValue();

        String fullBody = oneVoucher(validPin());
        var full = api.post("/collect/redemptions", fullBody).idempotencyKey("rotation-1").send();
        assertThat(full.status()).as(full.toString()).isEqualTo(201);
        var partial = api.post("/collect/redemptions", oneVoucher(validPin(), 2500)).send();
        assertThat(partial.json().get("change_voucher").get("amount").longValue()).isEqualTo(7500);
        // As a later read shows it (opening the sealed source and change voucher).
        JsonNode retrievedPartial = api.get("/collect/redemptions/" + partial.json().get("id").stringValue()).send().json();
        assertThat(retrievedPartial.get("change_voucher").get("pin").stringValue())
                .endsWith(lastFour(partial.json().get("change_voucher").get("pin").stringValue()));
        return new Made(api, apiKey, full.json(), full.bytes(), fullBody, partial.json(), retrievedPartial, endpointId,
                secret, previousSecret);
    }

    /** Every kind of sealed value, read over the API; and a new event is signed with both webhook secrets. */
    private void assertEverythingReads(Api api, Made made, ConfigurableApplicationContext context) {
        // The admin-made API key still authenticates (its hash key is sealed too).
        var full = api.get("/collect/redemptions/" + made.full().get("id").stringValue()).send();
        assertThat(full.status()).as(full.toString()).isEqualTo(200);
        assertThat(full.json()).isEqualTo(made.full());
        var partial = api.get("/collect/redemptions/" + made.partial().get("id").stringValue()).send();
        assertThat(partial.status()).as(partial.toString()).isEqualTo(200);
        assertThat(partial.json()).isEqualTo(made.retrievedPartial());
        // The stored response replays byte for byte.
        var replay = api.post("/collect/redemptions", made.fullBody()).idempotencyKey("rotation-1").send();
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.bytes()).isEqualTo(made.fullBytes());
        // A new redemption: its events reach the endpoint signed under the current and the previous secret.
        var created = api.post("/collect/redemptions", oneVoucher(validPin())).send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").stringValue();
        var delivered = receiver.await(list -> list.stream().anyMatch(r -> r.json().get("data").get("id").stringValue().equals(id)),
                Duration.ofSeconds(30), "an event of " + id).stream()
                .filter(r -> r.json().get("data").get("id").stringValue().equals(id)).findFirst().orElseThrow();
        for (String secret : List.of(made.secret(), made.previousSecret())) {
            assertThat(new StandardWebhooksVerifier(secret).verify(delivered.webhookId(), delivered.timestamp(),
                    delivered.signature(), delivered.body(), Instant.now())).as("signed under " + secret).isTrue();
        }
        assertThat(context.getBean(JdbcClient.class).sql("select count(*) from sandbox_operations").query(Long.class)
                .single()).isPositive();
    }

    private static String lastFour(String pin) {
        return pin.substring(pin.length() - 4);
    }

    /**
     * How many values in all sealed columns are not under the running instance's current key. Also checks that the
     * columns the job re-seals are every bytea column of the schema that is not a keyed hash.
     */
    private static long notUnder(ConfigurableApplicationContext context) {
        JdbcClient jdbc = context.getBean(JdbcClient.class);
        SecretBox box = context.getBean(SecretBox.class);
        List<SealedColumn> columns = context.getBeansOfType(SealedColumns.class).values().stream()
                .flatMap(o -> o.sealedColumns().stream()).toList();
        Set<String> registered = new LinkedHashSet<>();
        columns.forEach(c -> registered.add(c.table() + "." + c.column()));
        List<String> bytea = new ArrayList<>(jdbc.sql("""
                        select table_name || '.' || column_name from information_schema.columns
                        where table_schema = 'public' and data_type = 'bytea'""")
                .query(String.class).list());
        bytea.removeAll(HASH_COLUMNS);
        bytea.removeAll(NOT_SECRET_COLUMNS);
        assertThat(registered).as("sealed columns the job knows").containsExactlyInAnyOrderElementsOf(bytea);
        long count = 0;
        for (SealedColumn column : columns) {
            count += jdbc.sql("select count(*) from " + column.table() + " where " + column.column()
                            + " is not null and substring(" + column.column() + " from 1 for 5) <> ?")
                    .param(box.currentPrefix()).query(Long.class).single();
        }
        return count;
    }
}
