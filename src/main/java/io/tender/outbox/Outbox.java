package io.tender.outbox;

import io.tender.api.Ids;
import io.tender.auth.Caller;
import io.tender.database.Statement;
import io.tender.database.Transactions;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Appends events to the outbox; must be called inside the transaction that makes the change they describe, after
 * that transaction has written the aggregate's own row (so that, per aggregate, append order is commit order).
 */
@Repository
public class Outbox {

    /** One event to append: what happened, to which aggregate, when, and the aggregate as the API shows it. */
    public record Event(String aggregateType, String aggregateId, String type, Instant time, byte[] data) {
    }

    private final JdbcClient jdbc;
    private final JdbcTemplate batches;
    private final String[] channels;
    private final OutboxRelay relay;
    private final CloudEventJson cloudEvents;

    Outbox(JdbcClient jdbc, JdbcTemplate batches, List<RelayChannel> channels, OutboxRelay relay, JsonMapper json) {
        this.jdbc = jdbc;
        this.batches = batches;
        this.cloudEvents = new CloudEventJson(json);
        this.channels = channels.stream().map(RelayChannel::name).toArray(String[]::new);
        this.relay = relay;
    }

    public String append(Caller caller, Event event) {
        Appending appending = appending(caller, event);
        jdbc.sql(appending.statement().sql()).params(appending.statement().args()).update();
        return appending.eventId();
    }

    /** An event and whose it is. */
    public record Owned(Caller caller, Event event) {
    }

    /**
     * Appends the events in order, as {@link #append} does each, in one round trip (a JDBC batch of the one
     * statement), in the transaction of their changes.
     */
    public void appendAll(List<Owned> events) {
        if (events.isEmpty()) {
            return;
        }
        List<Appending> appending = events.stream().map(e -> appending(e.caller(), e.event())).toList();
        batches.batchUpdate(appending.getFirst().statement().sql(),
                appending.stream().map(a -> a.statement().args()).toList());
    }

    /** An event's id and the statement that appends it, for the caller to send in its transaction. */
    public record Appending(String eventId, Statement statement) {
    }

    /**
     * The statement that appends {@code event}, for a caller that sends it with others in one round trip
     * ({@link io.tender.database.RoundTrips#send}) in the transaction that makes the change; the relay is woken
     * when that transaction commits.
     */
    public Appending appending(Caller caller, Event event) {
        Transactions.mandatory("an event's append");
        // Ordered: the event log lists events newest first by id, and one transaction may append several.
        String id = Ids.newOrderedId("evt_");
        String payload = cloudEvents.write(id, "/" + event.aggregateType().replace('.', '/'), event.type(),
                event.aggregateId(), event.time().atOffset(ZoneOffset.UTC), caller.merchantId(), caller.mode().wire(),
                event.data());
        // The event and its pending row per channel in one statement (one round trip, not one per row).
        Statement statement = Statement.update("""
                        with event as (
                            insert into outbox (id, aggregatetype, aggregateid, type, payload, merchant_id, mode, created_at)
                            values (?, ?, ?, ?, ?::json, ?, ?, ?)
                            returning seq)
                        insert into outbox_relay (channel, seq, event_id, aggregateid)
                        select channel, event.seq, ?, ? from event, unnest(?::text[]) as channel""",
                id, event.aggregateType(), event.aggregateId(), event.type(),
                payload,
                caller.merchantId(), caller.mode().wire(), event.time().atOffset(ZoneOffset.UTC),
                id, event.aggregateId(), channels);
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    relay.wake();
                }
            });
        }
        return new Appending(id, statement);
    }
}
