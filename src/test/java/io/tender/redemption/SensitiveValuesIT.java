package io.tender.redemption;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.FailingController;
import io.tender.support.Merchants.Merchant;
import io.tender.support.RawHttp;
import io.tender.support.Vouchers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.ott;
import static io.tender.support.Vouchers.pin;
import static io.tender.support.Vouchers.providerC;
import static io.tender.support.Vouchers.token;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Decisions §1 "Sensitive values": voucher PINs and tokens, and change-voucher PINs, never reach a log line, an error
 * response or an event, and are stored only sealed. Drives every kind of request that carries one, good and bad,
 * then searches the captured output and every table of the database for each secret.
 */
@ExtendWith(OutputCaptureExtension.class)
class SensitiveValuesIT extends ApiIntegrationTest {

    private static final String PHONE = "+27821234567";

    /** Every secret the test sent or received; none may appear anywhere but where the API must show it. */
    private final Set<String> secrets = new LinkedHashSet<>();
    private final List<String> errorResponses = new ArrayList<>();
    private Api api;

    private String secret(String value) {
        secrets.add(value);
        return value;
    }

    private JsonNode redeem(String body) {
        var response = api.post("/collect/redemptions", body).idempotencyKey(UUID.randomUUID().toString()).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        JsonNode redemption = response.json();
        if (redemption.has("change_voucher")) {
            secret(redemption.get("change_voucher").get("pin").stringValue());
        }
        // A response shows the request's secret masked, never in full.
        JsonNode source = redemption.get("source");
        for (String name : List.of("pin", "token")) {
            if (source.has(name)) {
                assertThat(source.get(name).stringValue()).startsWith("*");
            }
        }
        return redemption;
    }

    private void refused(Api.Request request, int status) {
        var response = request.send();
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        errorResponses.add(response.text());
    }

    private Api.Request post(Api client, String body) {
        return client.post("/collect/redemptions", body).idempotencyKey(UUID.randomUUID().toString());
    }

    @Test
    void voucherSecretsReachNoLogLineNoErrorResponseAndAreStoredOnlySealed(CapturedOutput output) {
        Merchant merchant = merchants.create();
        api = merchant.test();

        // Redemptions of every type, confirmed and failed, full and partial.
        redeem(oneVoucher(secret(validPin())));
        JsonNode partial = redeem(oneVoucher(secret(validPin()), 2500));
        String change = partial.get("change_voucher").get("pin").stringValue();
        JsonNode ofChange = redeem(oneVoucher(change, 1000));
        redeem(oneVoucher(ofChange.get("change_voucher").get("pin").stringValue()));
        for (String suffix : List.of("0002", "0003", "0004", "0005")) {
            redeem(oneVoucher(secret(pin(suffix))));
            redeem(ott(secret(token(suffix)), PHONE));
            redeem(providerC(secret(token(suffix))));
        }
        redeem(oneVoucher(secret(validPin()), 10001));
        redeem("{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + secret(validPin()) + "\"},\"currency\":\"USD\"}");
        redeem(ott(secret(token("1237")), PHONE));
        redeem("{\"type\":\"vouchers.ott\",\"source\":{\"pin\":\"" + secret(token("2237")) + "\",\"phone_number\":\""
                + PHONE + "\"},\"amount\":1000,\"currency\":\"ZAR\"}");
        redeem(providerC(secret(token("3237"))));
        JsonNode providerCPartial = redeem("{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\""
                + secret(token("4237")) + "\"},\"amount\":5000,\"currency\":\"ZAR\"}");
        redeem(providerC(providerCPartial.get("change_voucher").get("pin").stringValue()));
        // A used voucher, a replay, and reads of redemptions with change vouchers.
        String used = secret(validPin());
        redeem(oneVoucher(used));
        redeem(oneVoucher(used));
        String key = UUID.randomUUID().toString();
        String replayed = oneVoucher(secret(validPin()), 100);
        api.post("/collect/redemptions", replayed).idempotencyKey(key).send();
        api.post("/collect/redemptions", replayed).idempotencyKey(key).send();
        api.get("/collect/redemptions/" + partial.get("id").stringValue()).send();
        api.get("/collect/redemptions?limit=100").send();

        // Requests that are refused while carrying a secret.
        refused(post(api, oneVoucher(secret("400012341234123"))), 400);
        refused(post(api, oneVoucher(secret("40001234123412345"))), 400);
        refused(post(api, oneVoucher(secret("400012341234123X"))), 400);
        refused(post(api, "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":" + secret("4000123412349871") + "}}"), 400);
        refused(post(api, "{\"type\":\"vouchers.one_voucher\",\"source\":\"" + secret("4000123412349872") + "\"}"), 400);
        refused(post(api, "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + secret(validPin())
                + "\",\"pin2\":\"" + secret(validPin()) + "\"}}"), 400);
        refused(post(api, "{\"type\":\"vouchers.ott\",\"source\":{\"pin\":\"" + secret("PIN!" + validPin())
                + "\",\"phone_number\":\"0821234567\"}}"), 400);
        refused(post(api, providerC(secret("T" + "9".repeat(70)))), 400);
        refused(post(api, "{\"type\":\"vouchers.loyalty\",\"source\":{\"pin\":\"" + secret(validPin()) + "\"}}"), 400);
        refused(post(api, "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + secret(validPin()) + "\""), 400);
        refused(post(api, "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + secret(validPin())
                + "\",\"pin\":\"" + secret(validPin()) + "\"}}"), 400);
        refused(post(api, "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":" + secret("4000123412349873") + "x}}"), 400);
        refused(post(api, "{\"source\":{\"pin\":\"" + secret(validPin()) + "\"},\"amount\":0}"), 400);
        refused(post(api, oneVoucher(secret(validPin()))).contentType("text/plain"), 415);
        refused(post(api, "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + secret(validPin())
                + "\"},\"redemption_options\":{\"pad\":\"" + "x".repeat(70_000) + "\"}}"), 413);
        refused(post(merchant.live(), oneVoucher(secret(validPin()))), 503);
        refused(post(merchant.publicTest(), oneVoucher(secret(validPin()))), 403);
        refused(post(anonymous(), oneVoucher(secret(validPin()))), 401);
        refused(api.post("/collect/redemptions", oneVoucher(secret(validPin()))).idempotencyKey(key), 409);
        refused(api.get("/collect/redemptions?cursor=" + secret(validPin())), 400);
        // A query Tomcat cannot decode: its own exception message quotes the value.
        var undecodable = RawHttp.get(port, "/collect/redemptions?cursor=" + secret(validPin()) + "%zz", api.key());
        assertThat(undecodable.status()).isEqualTo(400);
        errorResponses.add(undecodable.text());

        // The capture is live: a failure's log line, with its request id, is in it.
        var failure = anonymous().get(FailingController.PATH).send();
        assertThat(output.getAll()).contains(failure.header("Request-Id"));

        assertThat(secrets).hasSizeGreaterThan(40);
        String logs = output.getAll();
        for (String secret : secrets) {
            assertThat(logs).as("log output").doesNotContain(secret);
            for (String response : errorResponses) {
                assertThat(response).as("error response").doesNotContain(secret);
            }
        }
        assertNoTableHoldsInClear(secrets);
    }

    @Test
    void voucherSecretsAndRedemptionIdsReachNoMetricAndNoHealthAnswer() {
        api = merchants.create().test();
        List<String> ids = new ArrayList<>();

        // Confirmed, failed (at reserve, at confirm, unreachable provider) and partial redemptions of every type.
        ids.add(redeem(oneVoucher(secret(validPin()))).get("id").stringValue());
        JsonNode partial = redeem(oneVoucher(secret(validPin()), 2500));
        ids.add(partial.get("id").stringValue());
        ids.add(redeem(oneVoucher(secret(pin("0002")))).get("id").stringValue());
        ids.add(redeem(oneVoucher(secret(pin("0003")))).get("id").stringValue());
        ids.add(redeem(ott(secret(token("1237")), PHONE)).get("id").stringValue());
        ids.add(redeem(ott(secret(token("0004")), PHONE)).get("id").stringValue());
        JsonNode providerCPartial = redeem("{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\""
                + secret(token("4237")) + "\"},\"amount\":5000,\"currency\":\"ZAR\"}");
        ids.add(providerCPartial.get("id").stringValue());
        ids.add(redeem(providerC(secret(token("0005")))).get("id").stringValue());
        assertThat(partial.has("change_voucher")).isTrue();
        assertThat(providerCPartial.has("change_voucher")).isTrue();
        assertThat(api.post("/stored_value/lookup", providerC(providerCPartial.get("change_voucher").get("pin")
                .stringValue())).send().status()).isEqualTo(200);
        // Paths with ids in them, known and unknown, and a secret where an id belongs.
        for (String id : ids) {
            assertThat(api.get("/collect/redemptions/" + id).send().status()).isEqualTo(200);
            assertThat(api.post("/collect/redemptions/" + id + "/confirm", null).send().status()).isEqualTo(409);
            assertThat(api.post("/collect/redemptions/" + id + "/reverse", null).send().status()).isEqualTo(409);
        }
        String unknownId = "rdm_" + "0".repeat(12) + Vouchers.digits(12);
        assertThat(api.get("/collect/redemptions/" + unknownId).send().status()).isEqualTo(404);
        ids.add(unknownId);
        assertThat(api.get("/collect/redemptions/" + secret(validPin())).send().status()).isEqualTo(404);
        assertThat(api.get("/collect/redemptions?cursor=" + secret(validPin())).send().status()).isEqualTo(400);
        // Requests no handler takes: an unmapped path and wrong methods, each with an id or a secret in it.
        assertThat(api.get("/collect/redemption/" + ids.getFirst()).send().status()).isEqualTo(404);
        assertThat(api.get("/collect/voucher/" + secret(validPin())).send().status()).isEqualTo(404);
        assertThat(api.delete("/collect/redemptions/" + ids.getFirst()).send().status()).isEqualTo(405);
        assertThat(api.get("/collect/redemptions/" + secret(validPin()) + "/confirm").send().status()).isEqualTo(405);

        // Meters are recorded as each request completes, possibly after its response reached the client.
        await().atMost(Duration.ofSeconds(10)).until(() -> prometheus().contains("status=\"405\""));
        String scrape = prometheus();
        var health = management().get("/actuator/health").send();
        assertThat(health.status()).isEqualTo(200);
        var httpMetric = management().get("/actuator/metrics/http.server.requests").send();
        assertThat(httpMetric.status()).isEqualTo(200);

        assertThat(secrets).hasSize(14);
        for (String secret : secrets) {
            assertThat(scrape).as("/actuator/prometheus").doesNotContain(secret);
            assertThat(health.text()).as("/actuator/health").doesNotContain(secret);
            assertThat(httpMetric.text()).as("/actuator/metrics/http.server.requests").doesNotContain(secret);
        }
        for (String id : ids) {
            assertThat(scrape).as("/actuator/prometheus").doesNotContain(id);
            assertThat(httpMetric.text()).as("/actuator/metrics/http.server.requests").doesNotContain(id);
        }
        // No id of any kind (prefix and 24 hex digits) in a tag, and every uri tag is a route template.
        assertThat(Pattern.compile("[a-z]+_[0-9a-f]{24}").matcher(scrape).find()).as(scrape).isFalse();
        Set<String> uris = new LinkedHashSet<>();
        Matcher uri = Pattern.compile("uri=\"([^\"]*)\"").matcher(scrape);
        while (uri.find()) {
            uris.add(uri.group(1));
        }
        httpMetric.json().get("availableTags").forEach(tag -> {
            if (tag.get("tag").stringValue().equals("uri")) {
                tag.get("values").forEach(v -> uris.add(v.stringValue()));
            }
        });
        assertThat(uris).contains("/collect/redemptions", "/collect/redemptions/{id}", "/collect/redemptions/{id}/confirm",
                "/collect/redemptions/{id}/reverse", "/stored_value/lookup");
        // Segments are lower-case literals (with Spring's wildcards) or {variables}: no PIN (digits) or token (T…).
        assertThat(uris).allMatch(u -> u.matches("^(UNKNOWN|NOT_FOUND|REDIRECTION|root|(/([a-z*][a-z0-9_.*-]*|\\{[^/}]+}))+)$"),
                "a route template");
    }

    private String prometheus() {
        var response = management().get("/actuator/prometheus").send();
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.text();
    }

    /** Every row of every table, as PostgreSQL prints it (jsonb as text, bytea as hex), holds no secret. */
    private void assertNoTableHoldsInClear(Set<String> secrets) {
        List<String> tables = jdbc.sql("select table_name from information_schema.tables where table_schema = 'public'"
                + " and table_type = 'BASE TABLE'").query(String.class).list();
        assertThat(tables).contains("redemptions", "outbox", "idempotency_keys", "sandbox_operations", "sandbox_vouchers");
        for (String table : tables) {
            List<String> rows = jdbc.sql("select t::text from \"" + table + "\" t").query(String.class).list();
            for (String row : rows) {
                for (String secret : secrets) {
                    String hex = HexFormat.of().formatHex(secret.getBytes(StandardCharsets.UTF_8));
                    assertThat(row).as("a row of " + table).doesNotContain(secret).doesNotContain(hex);
                }
            }
        }
    }
}
