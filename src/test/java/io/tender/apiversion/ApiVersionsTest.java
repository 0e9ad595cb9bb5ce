package io.tender.apiversion;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The versions Tender serves and how the changes between them are chosen (decisions §15): which version a text names,
 * which changes render an answer or an event of a path or type down to a version, and that where none applies nothing
 * is parsed or written again (the same tree, the same bytes).
 */
class ApiVersionsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final VersionShapes SHAPES = new VersionShapes(id -> Optional.empty());

    @Test
    void theVersionsAreTheSpecsDatedEntriesThatChangeWhatAClientSendsOrReads() {
        assertThat(ApiVersions.ALL).extracting(ApiVersion::wire)
                .containsExactly("2026-03-13", "2026-03-15", "2026-03-16", "2026-06-01");
        assertThat(ApiVersions.NEWEST.wire()).isEqualTo("2026-06-01");
        assertThat(ApiVersions.knownList()).isEqualTo("2026-03-13, 2026-03-15, 2026-03-16, 2026-06-01");
        assertThat(ApiVersions.changesAfter(ApiVersions.NEWEST)).isEmpty();
        assertThat(ApiVersions.changesAfter(ApiVersions.OLDEST)).hasSize(4);
        assertThat(ApiVersions.changesAfter(ApiVersion.of("2026-03-16"))).extracting(c -> c.version().wire())
                .containsExactly("2026-06-01", "2026-06-01");
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-06-01", "2026-03-13"})
    void aServedVersionIsKnown(String text) {
        assertThat(ApiVersions.known(text)).map(ApiVersion::wire).contains(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "2026-6-1", "2026-06-01 ", "20260601", "2026-02-30", "2026-06-01T00:00:00Z", "latest",
            "2026-03-14", "2025-01-01", "2099-01-01"})
    void anythingElseIsNot(String text) {
        assertThat(ApiVersions.known(text)).isEmpty();
    }

    @ParameterizedTest(name = "{1} in {0}: {2} change(s)")
    @CsvSource(delimiter = '|', textBlock = """
            2026-06-01 | /collect/payments/pay_1            | 0
            2026-03-13 | /collect/redemptions               | 0
            2026-03-13 | /collect/redemptions/rdm_1/confirm | 0
            2026-03-13 | /billing/bills                     | 0
            2026-03-13 | /billing/test_helpers/payments     | 0
            2026-03-13 | /webhook_endpoints                 | 0
            2026-03-13 | /collect/payments_other            | 0
            2026-03-13 | /collect/payments/pay_1            | 3
            2026-03-16 | /collect/payments/pay_1            | 2
            2026-03-13 | /collect/payment_sessions          | 3
            2026-03-15 | /collect/payment_sessions/ps_1     | 2
            2026-03-13 | /collect/payment_requests          | 1
            2026-03-13 | /events                            | 3
            2026-03-16 | /events/evt_1                      | 2
            """)
    void onlyTheChangesNewerThanTheVersionThatTouchThePathRenderIt(String version, String path, int changes) {
        assertThat(ApiVersions.renderingAnswers(ApiVersion.of(version), path)).hasSize(changes);
        assertThat(SHAPES.rendersAnswers(ApiVersion.of(version), path)).isEqualTo(changes > 0);
    }

    @Test
    void aRequestNoChangeTouchesIsTheSameTree() {
        JsonNode body = JSON.readTree("{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"4000123412341237\"}}");
        assertThat(SHAPES.readUp(ApiVersions.OLDEST, new Route("POST", "/collect/redemptions"), body)).isSameAs(body);
        assertThat(JSON.writeValueAsString(body))
                .isEqualTo("{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"4000123412341237\"}}");
    }

    @Test
    void anEventNoChangeTouchesKeepsItsVeryBytes() {
        byte[] envelope = ("{\"id\":\"evt_0000000000000000000000a1\",\"type\":\"redemption.confirmed\","
                + "\"created_at\":\"2026-06-02T10:00:00.000Z\",\"data\":{\"id\":\"rdm_0000000000000000000000a1\"}}")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(SHAPES.renderEvent(ApiVersions.OLDEST, "redemption.confirmed", envelope)).isSameAs(envelope);
        assertThat(SHAPES.renderEvent(ApiVersions.NEWEST, "payment.succeeded", envelope)).isSameAs(envelope);
    }

    @Test
    void aListRendersEachItemAndAnEventLogEachEventOfATypeTheChangeTouches() {
        JsonNode list = JSON.readTree("""
                {"data": [
                  {"id": "evt_0000000000000000000000a1", "type": "payment.succeeded", "data":
                    {"id": "pay_0000000000000000000000a1", "payment_method_details": {"type": "pay_by_bank", "pay_by_bank": {}}}},
                  {"id": "evt_0000000000000000000000a2", "type": "redemption.confirmed", "data":
                    {"id": "pay_0000000000000000000000a2", "payment_method_details": {"type": "pay_by_bank"}}},
                  {"id": "evt_0000000000000000000000a3", "type": "payment_page.payment_received", "data":
                    {"id": "pt_0000000000000000000000a3", "payment": {"id": "pay_0000000000000000000000a3", "status": "pending",
                      "payment_method_details": {"type": "pay_by_bank", "pay_by_bank": {}}}}}
                ], "has_more": false}""");
        SHAPES.renderAnswer(ApiVersions.OLDEST, "/events", list, false);
        assertThat(list.at("/data/0/data/payment_method_details/type").stringValue()).isEqualTo("instant_eft");
        assertThat(list.at("/data/0/data/payment_method_details").has("instant_eft")).isTrue();
        assertThat(list.at("/data/1/data/payment_method_details/type").stringValue()).isEqualTo("pay_by_bank");
        assertThat(list.at("/data/2/data/payment/payment_method_details/type").stringValue()).isEqualTo("instant_eft");
        assertThat(list.at("/data/2/data/payment/status").stringValue()).isEqualTo("processing");
    }
}
