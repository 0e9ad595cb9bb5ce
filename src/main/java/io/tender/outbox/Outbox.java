package io.tender.outbox;

import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.core.format.EventFormat;
import io.cloudevents.core.provider.EventFormatProvider;
import io.cloudevents.jackson.JsonFormat;
import io.tender.api.Ids;
import io.tender.auth.Caller;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;

/** Appends events to the outbox; must be called inside the transaction that makes the change they describe. */
@Repository
public class Outbox {

    /** One event to append: what happened, to which aggregate, when, and the aggregate as the API shows it. */
    public record Event(String aggregateType, String aggregateId, String type, Instant time, byte[] data) {
    }

    private final JdbcClient jdbc;
    private final EventFormat format = EventFormatProvider.getInstance().resolveFormat(JsonFormat.CONTENT_TYPE);

    Outbox(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public String append(Caller caller, Event event) {
        String id = Ids.newId("evt_");
        var cloudEvent = CloudEventBuilder.v1()
                .withId(id)
                .withSource(URI.create("/" + event.aggregateType().replace('.', '/')))
                .withType(event.type())
                .withSubject(event.aggregateId())
                .withTime(event.time().atOffset(ZoneOffset.UTC))
                .withDataContentType("application/json")
                .withData(event.data())
                .withExtension("merchantid", caller.merchantId())
                .withExtension("mode", caller.mode().wire())
                .build();
        jdbc.sql("""
                        insert into outbox (id, aggregatetype, aggregateid, type, payload, merchant_id, mode, created_at)
                        values (?, ?, ?, ?, ?::jsonb, ?, ?, ?)""")
                .params(id, event.aggregateType(), event.aggregateId(), event.type(),
                        new String(format.serialize(cloudEvent), StandardCharsets.UTF_8),
                        caller.merchantId(), caller.mode().wire(), event.time().atOffset(ZoneOffset.UTC))
                .update();
        return id;
    }
}
