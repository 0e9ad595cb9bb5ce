package io.tender.redemption;

import io.cloudevents.CloudEvent;
import io.cloudevents.SpecVersion;
import io.cloudevents.core.format.EventFormat;
import io.cloudevents.core.provider.EventFormatProvider;
import io.cloudevents.jackson.JsonFormat;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.pin;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §2 "Events": every state transition writes one CloudEvents 1.0 event to the outbox in the same
 * transaction, carrying the redemption as the API showed it at that moment, with secrets masked.
 */
class RedemptionEventsIT extends ApiIntegrationTest {

    private static final EventFormat CLOUD_EVENTS = Objects.requireNonNull(
            EventFormatProvider.getInstance().resolveFormat(JsonFormat.CONTENT_TYPE));

    private Merchant merchant;
    private Api api;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        api = merchant.test();
    }

    /** One outbox row, its columns and the CloudEvent parsed from its payload. */
    private record Row(String id, String aggregateType, String aggregateId, String type, String merchantId,
                       String mode, Instant createdAt, CloudEvent event) {
        JsonNode data() {
            return Api.JSON.readTree(Objects.requireNonNull(event.getData()).toBytes());
        }
    }

    private List<Row> events(String redemptionId) {
        return jdbc.sql("""
                        select id, aggregatetype, aggregateid, type, payload::text as payload, merchant_id, mode, created_at
                        from outbox where aggregateid = ? order by created_at, id""")
                .param(redemptionId)
                .query((rs, i) -> new Row(rs.getString("id"), rs.getString("aggregatetype"), rs.getString("aggregateid"),
                        rs.getString("type"), rs.getString("merchant_id"), rs.getString("mode"),
                        rs.getObject("created_at", OffsetDateTime.class).toInstant(),
                        CLOUD_EVENTS.deserialize(rs.getString("payload").getBytes(StandardCharsets.UTF_8))))
                .list();
    }

    private JsonNode create(String body) {
        var response = api.post("/collect/redemptions", body).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json();
    }

    private JsonNode retrieve(String id) {
        return api.get("/collect/redemptions/" + id).send().json();
    }

    private void assertEnvelopes(List<Row> rows, String redemptionId) {
        var ids = new HashSet<String>();
        Instant previous = Instant.EPOCH;
        for (Row row : rows) {
            CloudEvent event = row.event();
            assertThat(event.getSpecVersion()).isEqualTo(SpecVersion.V1);
            assertThat(event.getId()).matches("^evt_[a-f0-9]{24}$").isEqualTo(row.id());
            assertThat(ids.add(event.getId())).as("event ids are unique").isTrue();
            assertThat(event.getSource()).isNotNull();
            assertThat(event.getSource().toString()).isEqualTo("/collect/redemption");
            assertThat(event.getType()).isEqualTo(row.type()).startsWith("redemption.");
            assertThat(event.getSubject()).isEqualTo(redemptionId);
            assertThat(event.getDataContentType()).isEqualTo("application/json");
            assertThat(event.getTime()).isNotNull();
            Instant time = event.getTime().toInstant();
            assertThat(time).isEqualTo(row.createdAt()).isAfterOrEqualTo(previous);
            previous = time;
            assertThat(event.getExtension("merchantid")).isEqualTo(merchant.id());
            assertThat(event.getExtension("mode")).isEqualTo("test");
            // The Debezium outbox router's columns agree with the event.
            assertThat(row.aggregateType()).isEqualTo("collect.redemption");
            assertThat(row.aggregateId()).isEqualTo(redemptionId);
            assertThat(row.merchantId()).isEqualTo(merchant.id());
            assertThat(row.mode()).isEqualTo("test");

            JsonNode data = row.data();
            assertThat(data.get("id").stringValue()).isEqualTo(redemptionId);
            assertThat(Instant.parse(data.get("updated_at").stringValue())).isEqualTo(time);
        }
    }

    private static List<String> types(List<Row> rows) {
        return rows.stream().map(Row::type).toList();
    }

    private static String status(Row row) {
        return row.data().get("status").stringValue();
    }

    private static int version(Row row) {
        return row.data().get("version").intValue();
    }

    private static List<String> operationTypes(Row row) {
        return row.data().get("operations").valueStream().map(o -> o.get("type").stringValue() + ":"
                + o.get("status").stringValue()).toList();
    }

    @Test
    void aFullRedeemWritesCreatedReservedConfirmed() {
        String pin = validPin();
        JsonNode redemption = create(oneVoucher(pin));
        String id = redemption.get("id").stringValue();
        List<Row> rows = events(id);

        assertThat(types(rows)).containsExactly("redemption.created", "redemption.reserved", "redemption.confirmed");
        assertEnvelopes(rows, id);

        Row created = rows.get(0);
        assertThat(status(created)).isEqualTo("draft");
        assertThat(version(created)).isEqualTo(1);
        assertThat(operationTypes(created)).isEmpty();
        assertThat(created.data().get("created_at")).isEqualTo(redemption.get("created_at"));

        Row reserved = rows.get(1);
        assertThat(status(reserved)).isEqualTo("reserved");
        assertThat(version(reserved)).isEqualTo(2);
        assertThat(operationTypes(reserved)).containsExactly("reserve:succeeded");
        assertThat(reserved.data().get("reserved_amount").longValue()).isEqualTo(10000);

        Row confirmed = rows.get(2);
        assertThat(status(confirmed)).isEqualTo("confirmed");
        assertThat(version(confirmed)).isEqualTo(3);
        // The last event is the redemption exactly as the API shows it now.
        assertThat(confirmed.data()).isEqualTo(retrieve(id));

        for (Row row : rows) {
            assertThat(row.data().get("source").get("pin").stringValue()).isEqualTo("************" + pin.substring(12));
            assertThat(new String(Objects.requireNonNull(row.event().getData()).toBytes(), StandardCharsets.UTF_8))
                    .doesNotContain(pin);
        }
    }

    @Test
    void aRejectedConfirmWritesCreatedReservedFailed() {
        String pin = pin("0003");
        String id = create(oneVoucher(pin)).get("id").stringValue();
        List<Row> rows = events(id);

        assertThat(types(rows)).containsExactly("redemption.created", "redemption.reserved", "redemption.failed");
        assertEnvelopes(rows, id);
        assertThat(rows.stream().map(RedemptionEventsIT::version)).containsExactly(1, 2, 2);
        Row failed = rows.get(2);
        assertThat(status(failed)).isEqualTo("failed");
        assertThat(operationTypes(failed)).containsExactly("reserve:succeeded", "confirm:failed");
        assertThat(failed.data().get("last_error").get("error_code").stringValue()).isEqualTo("BAD_REQUEST");
        assertThat(failed.data()).isEqualTo(retrieve(id));
    }

    @Test
    void aRejectedReserveWritesCreatedFailed() {
        String id = create(oneVoucher(pin("0002"))).get("id").stringValue();
        List<Row> rows = events(id);

        assertThat(types(rows)).containsExactly("redemption.created", "redemption.failed");
        assertEnvelopes(rows, id);
        assertThat(rows.stream().map(RedemptionEventsIT::version)).containsExactly(1, 2);
        assertThat(rows.get(1).data()).isEqualTo(retrieve(id));
    }

    @Test
    void aPartialRedeemWritesCreatedConfirmedWithTheChangeVoucherPinMasked() {
        String pin = validPin();
        JsonNode redemption = create(oneVoucher(pin, 2500));
        String id = redemption.get("id").stringValue();
        String changePin = redemption.get("change_voucher").get("pin").stringValue();
        List<Row> rows = events(id);

        assertThat(types(rows)).containsExactly("redemption.created", "redemption.confirmed");
        assertEnvelopes(rows, id);
        assertThat(rows.stream().map(RedemptionEventsIT::version)).containsExactly(1, 2);
        assertThat(status(rows.get(0))).isEqualTo("draft");
        assertThat(rows.get(0).data().get("amount").longValue()).isEqualTo(2500);

        JsonNode confirmed = rows.get(1).data();
        assertThat(operationTypes(rows.get(1))).containsExactly("confirm:succeeded");
        assertThat(confirmed.get("change_voucher").get("pin").stringValue())
                .isEqualTo("************" + changePin.substring(12));
        // Apart from that PIN, it is the redemption as the API shows it.
        ObjectNode shown = (ObjectNode) retrieve(id);
        ((ObjectNode) shown.get("change_voucher")).put("pin", confirmed.get("change_voucher").get("pin").stringValue());
        assertThat(confirmed).isEqualTo(shown);
        for (Row row : rows) {
            String data = new String(Objects.requireNonNull(row.event().getData()).toBytes(), StandardCharsets.UTF_8);
            assertThat(data).doesNotContain(pin).doesNotContain(changePin);
        }
    }

    @Test
    void retrievingAndListingWriteNoEvents() {
        String id = create(oneVoucher(validPin())).get("id").stringValue();
        retrieve(id);
        api.get("/collect/redemptions").send();
        assertThat(events(id)).hasSize(3);
    }
}
