package io.tender.outbox;

import io.tender.auth.Mode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Delivers every outbox event to every {@link RelayChannel}, at least once and in order per aggregate, on any
 * number of instances sharing the database.
 * <p>
 * Each poll is one transaction per channel. It locks the first pending event of up to {@code batch-size}
 * aggregates with {@code FOR UPDATE SKIP LOCKED} (an event is first when no earlier event of its aggregate is still
 * pending on that channel), then reads those aggregates' pending events in append order, hands them to the
 * channel, and deletes their pending rows. While one instance holds the lock on an aggregate's first pending event,
 * no other instance can take any event of that aggregate: a later event is never first while an earlier one is
 * pending. A crash rolls the transaction back and releases the locks, so the same events are delivered again.
 * <p>
 * There is no "last relayed id" to move forward: each pending event has its own row, so an event whose transaction
 * commits after later-numbered ones simply shows up on a later poll and nothing is skipped.
 */
@Component
public class OutboxRelay implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);

    private final JdbcClient jdbc;
    private final TransactionTemplate tx;
    private final List<RelayChannel> channels;
    private final EventSettings settings;
    private final Wakeup wakeup = new Wakeup();
    private final List<Thread> loops = new ArrayList<>();
    private volatile boolean running;

    OutboxRelay(JdbcClient jdbc, TransactionTemplate tx, List<RelayChannel> channels, EventSettings settings) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.channels = channels;
        this.settings = settings;
    }

    /** New events were committed in this instance: poll now rather than at the next interval. */
    public void wake() {
        wakeup.wake();
    }

    /**
     * One relay transaction for one channel.
     *
     * @return how many events were delivered (0: nothing was pending, or every pending aggregate is taken)
     */
    int relayOnce(RelayChannel channel) {
        return relayOnce(channel, settings.batchSize());
    }

    int relayOnce(RelayChannel channel, int aggregatesAtMost) {
        Integer delivered = tx.execute(status -> {
            List<String> aggregates = jdbc.sql("""
                            select r.aggregateid from outbox_relay r
                            where r.channel = :channel
                              and not exists (select 1 from outbox_relay earlier
                                              where earlier.channel = r.channel and earlier.aggregateid = r.aggregateid
                                                and earlier.seq < r.seq)
                            order by r.seq
                            limit :limit
                            for update of r skip locked""")
                    .param("channel", channel.name())
                    .param("limit", aggregatesAtMost)
                    .query(String.class).list();
            if (aggregates.isEmpty()) {
                return 0;
            }
            List<OutboxEvent> events = jdbc.sql("""
                            select o.id, o.seq, o.aggregatetype, o.aggregateid, o.type, o.merchant_id, o.mode,
                                   o.created_at, o.payload::text as payload
                            from outbox_relay r join outbox o on o.id = r.event_id
                            where r.channel = :channel and r.aggregateid in (:aggregates)
                            order by r.seq""")
                    .param("channel", channel.name())
                    .param("aggregates", aggregates)
                    .query(OutboxRelay::event).list();
            channel.deliver(events);
            jdbc.sql("delete from outbox_relay where channel = :channel and seq in (:seqs)")
                    .param("channel", channel.name())
                    .param("seqs", events.stream().map(OutboxEvent::seq).toList())
                    .update();
            return events.size();
        });
        return delivered == null ? 0 : delivered;
    }

    static OutboxEvent event(ResultSet rs, int row) throws SQLException {
        return new OutboxEvent(rs.getString("id"), rs.getLong("seq"), rs.getString("aggregatetype"),
                rs.getString("aggregateid"), rs.getString("type"), rs.getString("merchant_id"),
                Mode.fromWire(rs.getString("mode")), rs.getTimestamp("created_at").toInstant(),
                rs.getString("payload"));
    }

    private void loop(RelayChannel channel) {
        Duration backoff = settings.pollInterval();
        while (running) {
            long seen = wakeup.generation();
            try {
                int delivered = relayOnce(channel);
                if (delivered == 0) {
                    wakeup.awaitAfter(seen, settings.pollInterval());
                } else if (delivered < settings.batchSize() && running) {
                    // Under load every commit wakes the relay; a short pause lets the next poll take the events of
                    // many commits in one transaction instead of one each. A full batch means a backlog: go on.
                    Thread.sleep(settings.linger());
                }
                backoff = settings.pollInterval();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // The transaction rolled back: the same events are tried again, after a growing pause.
                log.warn("Relaying events to {} failed, retrying in {}: {}", channel.name(), backoff, e.toString());
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
                backoff = backoff.multipliedBy(2).compareTo(Duration.ofMinutes(1)) > 0
                        ? Duration.ofMinutes(1) : backoff.multipliedBy(2);
            }
        }
    }

    @Override
    public synchronized void start() {
        running = true;
        for (RelayChannel channel : channels) {
            loops.add(Thread.ofVirtual().name("outbox-relay-" + channel.name()).start(() -> loop(channel)));
        }
        log.info("Outbox relay started for {}", channels.stream().map(RelayChannel::name).toList());
    }

    @Override
    public synchronized void stop() {
        running = false;
        // Woken rather than interrupted: an interrupt in the middle of a JDBC call would break the connection.
        wakeup.wake();
        for (Thread loop : loops) {
            try {
                if (!loop.join(Duration.ofSeconds(30))) {
                    loop.interrupt();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        loops.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
