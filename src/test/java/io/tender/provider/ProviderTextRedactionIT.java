package io.tender.provider;

import io.tender.support.Api;
import io.tender.support.LiveProvidersIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.notFound;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.status;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static io.tender.support.Vouchers.digits;
import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §9: text that comes from a provider is stripped of the submitted PIN or token before it is stored or
 * shown. A live provider (WireMock) that echoes the PIN, as sent and printed in groups, in its messages, references
 * and change voucher: the API shows it masked, and neither the database nor the log output holds it in clear.
 */
@ExtendWith(OutputCaptureExtension.class)
class ProviderTextRedactionIT extends LiveProvidersIntegrationTest {

    private Api live;

    @BeforeEach
    void merchant() {
        live = merchants.create().live();
        // Anything not stubbed below is matched too (404), so that WireMock itself never prints a request body.
        PROVIDER.stubFor(any(anyUrl()).atPriority(100).willReturn(notFound()));
    }

    private static String grouped(String pin) {
        return pin.substring(0, 4) + " " + pin.substring(4, 8) + "-" + pin.substring(8, 12) + "." + pin.substring(12);
    }

    private static String masked(String secret) {
        return "*".repeat(secret.length() - 4) + secret.substring(secret.length() - 4);
    }

    @Test
    void aPinEchoedInMessagesAndReferencesIsShownStoredAndLoggedOnlyMasked(CapturedOutput output) {
        String pin = validPin();
        // The reserve's outcome is unknown at first (its message is logged), the status query approves it with a
        // reference holding the PIN, and the confirm is declined with a message quoting it.
        PROVIDER.stubFor(post("/one_voucher/reserve").willReturn(okJson("{\"result\":\"unknown\",\"error_code\":"
                + "\"one_voucher.pending\",\"message\":\"Still working on voucher " + pin + "\"}")));
        PROVIDER.stubFor(get(urlPathMatching("/one_voucher/operations/rdm_[a-f0-9]{24}(:|%3A)reserve"))
                .willReturn(okJson("{\"result\":\"approved\",\"amount\":10000,\"currency\":\"ZAR\",\"reference\":{"
                        + "\"pin\":\"" + pin + "\",\"note\":\"voucher " + grouped(pin) + " held\","
                        + "\"lines\":[{\"text\":\"PIN " + pin.toLowerCase() + "\"}]}}")));
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(status(422).withHeader("Content-Type", "application/json")
                .withBody("{\"result\":\"declined\",\"error_code\":\"one_voucher.2403\",\"message\":\"PIN " + pin
                        + " is blocked (" + grouped(pin) + ")\"}")));

        var response = live.post("/collect/redemptions", oneVoucher(pin)).idempotencyKey(UUID.randomUUID().toString()).send();

        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        JsonNode r = response.json();
        assertThat(r.get("status").stringValue()).isEqualTo("failed");
        JsonNode reference = r.get("operations").get(0).get("provider_reference");
        assertThat(reference.get("pin").stringValue()).isEqualTo(masked(pin));
        assertThat(reference.get("note").stringValue()).isEqualTo("voucher " + masked(pin) + " held");
        assertThat(reference.get("lines").get(0).get("text").stringValue()).isEqualTo("PIN " + masked(pin));
        assertThat(r.get("last_error").get("message").stringValue())
                .isEqualTo("PIN " + masked(pin) + " is blocked (" + masked(pin) + ")");
        var fetched = live.get("/collect/redemptions/" + r.get("id").stringValue()).send();
        assertThat(fetched.json()).isEqualTo(r);
        for (String shown : List.of(response.text(), fetched.text())) {
            assertThat(shown).doesNotContain(pin).doesNotContain(grouped(pin));
        }
        assertNowhereInClear(output, pin, grouped(pin));
    }

    @Test
    void aPartialRedeemKeepsTheChangePinButStripsTheSubmittedOneFromEverythingElse(CapturedOutput output) {
        String pin = validPin();
        String changePin = digits(12) + "4321";
        PROVIDER.stubFor(post("/one_voucher/confirm").willReturn(okJson("{\"result\":\"approved\",\"amount\":2500,"
                + "\"currency\":\"ZAR\",\"reference\":{\"receipt\":\"Redeemed " + pin + "\",\"new_voucher\":\"" + changePin
                + "\"},\"change_voucher\":{\"pin\":\"" + changePin + "\",\"serial_number\":\"SN-" + pin + "\","
                + "\"amount\":7500,\"status\":\"ACTIVE\"}}")));

        var response = live.post("/collect/redemptions", oneVoucher(pin, 2500)).send();

        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        JsonNode r = response.json();
        assertThat(r.get("status").stringValue()).isEqualTo("confirmed");
        // The create shows the change voucher's PIN in full, as decisions §1 wants; nothing else holds either PIN.
        assertThat(r.get("change_voucher").get("pin").stringValue()).isEqualTo(changePin);
        assertThat(r.get("change_voucher").get("serial_number").stringValue()).isEqualTo("SN-" + masked(pin));
        assertThat(r.get("provider_reference").get("receipt").stringValue()).isEqualTo("Redeemed " + masked(pin));
        assertThat(r.get("provider_reference").get("new_voucher").stringValue()).isEqualTo(masked(changePin));
        assertThat(response.text()).doesNotContain(pin);
        String later = live.get("/collect/redemptions/" + r.get("id").stringValue()).send().text();
        assertThat(later).doesNotContain(pin).doesNotContain(changePin);
        assertNowhereInClear(output, pin, changePin);
    }

    @Test
    void aLookupAnswerEchoingTheSecretShowsItMasked(CapturedOutput output) {
        String pin = "T" + digits(11) + "7";
        String body = "{\"type\":\"vouchers.ott\",\"source\":{\"pin\":\"" + pin + "\",\"phone_number\":\"+27821234567\"}}";
        PROVIDER.stubFor(post("/ott/lookup").willReturn(okJson("{\"result\":\"balance\",\"balance\":5000,"
                + "\"currency\":\"ZAR\",\"metadata\":{\"holder\":\"voucher " + pin + "\"}}")));

        var balance = live.post("/stored_value/lookup", body).send();

        assertThat(balance.status()).as(balance.toString()).isEqualTo(200);
        assertThat(balance.json().get("provider_metadata").get("holder").stringValue()).isEqualTo("voucher " + masked(pin));

        PROVIDER.stubFor(post("/ott/lookup").willReturn(status(422).withHeader("Content-Type", "application/json")
                .withBody("{\"result\":\"declined\",\"error_code\":\"ott.blocked\",\"message\":\"" + pin + " is blocked\"}")));
        var refused = live.post("/stored_value/lookup", body).idempotencyKey(UUID.randomUUID().toString()).send();

        assertThat(refused.status()).as(refused.toString()).isEqualTo(422);
        assertThat(refused.json().get("detail").stringValue()).contains(masked(pin) + " is blocked");
        for (String shown : List.of(balance.text(), refused.text())) {
            assertThat(shown).doesNotContain(pin);
        }
        assertNowhereInClear(output, pin);
    }

    /** Neither the log output nor any row of any table (as text, or its bytes as hex) holds a secret. */
    private void assertNowhereInClear(CapturedOutput output, String... secrets) {
        String logs = output.getAll();
        List<String> tables = jdbc.sql("select table_name from information_schema.tables where table_schema = 'public'"
                + " and table_type = 'BASE TABLE'").query(String.class).list();
        assertThat(tables).contains("redemptions", "outbox", "idempotency_keys");
        for (String secret : secrets) {
            assertThat(logs).as("log output").doesNotContain(secret);
            String hex = HexFormat.of().formatHex(secret.getBytes(StandardCharsets.UTF_8));
            for (String table : tables) {
                for (String row : jdbc.sql("select t::text from \"" + table + "\" t").query(String.class).list()) {
                    assertThat(row).as("a row of " + table).doesNotContain(secret).doesNotContain(hex);
                }
            }
        }
    }
}
