package io.tender.outbox;

import io.tender.api.NotFound;
import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.auth.Caller;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Reads the outbox as the merchant's event log, scoped to the caller's merchant and mode. */
@Repository
public class EventLog {

    private static final String COLUMNS = """
            id, seq, aggregatetype, aggregateid, type, merchant_id, mode, created_at, payload::text as payload""";

    private final JdbcClient jdbc;

    EventLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<OutboxEvent> find(Caller caller, String id) {
        return jdbc.sql("select " + COLUMNS + " from outbox where id = ? and merchant_id = ? and mode = ?")
                .params(id, caller.merchantId(), caller.mode().wire())
                .query(OutboxRelay::event).optional();
    }

    /** Any merchant's event, for delivery machinery that works across merchants. */
    public Optional<OutboxEvent> find(String id) {
        return jdbc.sql("select " + COLUMNS + " from outbox where id = ?").params(id)
                .query(OutboxRelay::event).optional();
    }

    public OutboxEvent get(Caller caller, String id) {
        return find(caller, id).orElseThrow(() -> new NotFound("event").thrown());
    }

    /**
     * The caller's events of these aggregates (a payment and its refunds, say), in the order they were appended, for
     * a timeline; another merchant's or mode's events of the same ids are left out.
     */
    public List<OutboxEvent> ofAggregates(Caller caller, Collection<String> aggregateIds) {
        if (aggregateIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("select " + COLUMNS + """
                         from outbox
                        where aggregateid = any(?::text[]) and merchant_id = ? and mode = ?
                        order by seq""")
                .params(aggregateIds.toArray(String[]::new), caller.merchantId(), caller.mode().wire())
                .query(OutboxRelay::event).list();
    }

    /** Newest first, {@code limit + 1} rows (see {@code ListPage.of}). */
    public List<OutboxEvent> list(Caller caller, ListQuery query, String type) {
        return ListSql.from("select " + COLUMNS + " from outbox").ownedBy(caller).where("type", type)
                .page(jdbc, query, OutboxRelay::event);
    }
}
