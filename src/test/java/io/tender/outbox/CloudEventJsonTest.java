package io.tender.outbox;

import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.core.provider.EventFormatProvider;
import io.cloudevents.jackson.JsonFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/** The event document the outbox writes is the one the CloudEvents SDK writes for the same event. */
class CloudEventJsonTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"id\":\"rdm_1\",\"amount\":10000,\"metadata\":{\"note\":\"caf\\u00e9 \\\"quoted\\\" \\\\ ünï\"},\"list\":[1,2.5,null,true]}",
            "{}",
            "{\"nested\":{\"deeper\":{\"empty\":[],\"text\":\"line\\nbreak\"}}}"})
    void writesWhatTheSdkWrites(String data) {
        Instant time = Instant.parse("2026-11-23T16:20:01.123456789Z");
        byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
        var sdkEvent = CloudEventBuilder.v1()
                .withId("evt_0001")
                .withSource(URI.create("/collect/redemption"))
                .withType("redemption.confirmed")
                .withSubject("rdm_1")
                .withTime(time.atOffset(ZoneOffset.UTC))
                .withDataContentType("application/json")
                .withData(bytes)
                .withExtension("merchantid", "mer_1")
                .withExtension("mode", "test")
                .build();
        String sdk = new String(EventFormatProvider.getInstance().resolveFormat(JsonFormat.CONTENT_TYPE)
                .serialize(sdkEvent), StandardCharsets.UTF_8);

        String ours = new CloudEventJson(json).write("evt_0001", "/collect/redemption", "redemption.confirmed",
                "rdm_1", time.atOffset(ZoneOffset.UTC), "mer_1", "test", bytes);

        assertThat(json.readTree(ours)).isEqualTo(json.readTree(sdk));
        // And the SDK reads ours back as the same event.
        var read = EventFormatProvider.getInstance().resolveFormat(JsonFormat.CONTENT_TYPE)
                .deserialize(ours.getBytes(StandardCharsets.UTF_8));
        assertThat(read.getTime()).isEqualTo(sdkEvent.getTime());
        assertThat(json.readTree(read.getData().toBytes())).isEqualTo(json.readTree(bytes));
    }
}
