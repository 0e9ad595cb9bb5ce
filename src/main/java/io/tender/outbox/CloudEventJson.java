package io.tender.outbox;

import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;

/**
 * One event in the CloudEvents JSON format (structured mode, spec version 1.0), written directly. The SDK's
 * {@code JsonFormat} writes the same document but first parses {@code data}, our own JSON, back into a tree to copy
 * it; that cost about as much as the rest of an append (docs/PERFORMANCE.md, "Round trips and CPU").
 * {@code CloudEventJsonTest} checks that both write the same event; the relay still reads events with the SDK.
 */
final class CloudEventJson {

    private final JsonMapper json;

    CloudEventJson(JsonMapper json) {
        this.json = json;
    }

    /** {@code data} must be a JSON document (it is written as it is: the event's data content type is JSON). */
    String write(String id, String source, String type, String subject, OffsetDateTime time, String merchantId,
                 String mode, byte[] data) {
        StringWriter out = new StringWriter(data.length + 320);
        try (JsonGenerator g = json.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringProperty("specversion", "1.0");
            g.writeStringProperty("id", id);
            g.writeStringProperty("source", source);
            g.writeStringProperty("type", type);
            g.writeStringProperty("datacontenttype", "application/json");
            g.writeStringProperty("subject", subject);
            g.writeStringProperty("time", DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(time));
            g.writeStringProperty("merchantid", merchantId);
            g.writeStringProperty("mode", mode);
            g.writeName("data");
            g.writeRawValue(new String(data, StandardCharsets.UTF_8));
            g.writeEndObject();
        }
        return out.toString();
    }
}
