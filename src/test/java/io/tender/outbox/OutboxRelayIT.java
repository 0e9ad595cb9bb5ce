package io.tender.outbox;

import io.tender.auth.Caller;
import io.tender.auth.KeyKind;
import io.tender.auth.Mode;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.SecondInstance;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.transaction.support.TransactionTemplate;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The relay against the real database: several relays at once (as several instances would run them), a transaction
 * that commits after later-numbered events, a channel that fails, and the retention purge. Each test relays to its
 * own probe channel, whose pending rows it writes in the events' own transactions, as {@link Outbox} does.
 */
class OutboxRelayIT extends ApiIntegrationTest {

    @Autowired
    OutboxRelay relay;
    @Autowired
    Outbox outbox;
    @Autowired
    OutboxPurge purge;
    @Autowired
    TransactionTemplate tx;
    @Autowired
    ApplicationContext context;

    private Caller caller;

    /** A channel that records what it was given, and by which thread. */
    static final class Probe implements RelayChannel {
        final String name = "probe-" + UUID.randomUUID();
        final List<OutboxEvent> delivered = Collections.synchronizedList(new ArrayList<>());
        final Set<String> threads = ConcurrentHashMap.newKeySet();
        volatile boolean failNext;

        @Override
        public String name() {
            return name;
        }

        @Override
        public void deliver(List<OutboxEvent> events) {
            if (failNext) {
                failNext = false;
                throw new IllegalStateException("the destination is down");
            }
            threads.add(Thread.currentThread().getName());
            delivered.addAll(events);
            try {
                Thread.sleep(15); // hold the claim a moment, so the other relays run alongside
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @BeforeEach
    void merchant() {
        caller = new Caller(merchants.create().id(), Mode.TEST, KeyKind.SK_TEST, "key_test");
    }

    /** Appends one event and queues it for the probe, in one transaction. */
    private String append(Probe probe, String aggregateId, Instant time) {
        return tx.execute(s -> {
            String id = outbox.append(caller, new Outbox.Event("test.probe", aggregateId, "redemption.created", time,
                    ("{\"id\":\"" + aggregateId + "\"}").getBytes(StandardCharsets.UTF_8)));
            queue(probe, id);
            return id;
        });
    }

    private void queue(Probe probe, String eventId) {
        jdbc.sql("insert into outbox_relay (channel, seq, event_id, aggregateid) select ?, seq, id, aggregateid from outbox where id = ?")
                .params(probe.name(), eventId).update();
    }

    private long pending(Probe probe) {
        return jdbc.sql("select count(*) from outbox_relay where channel = ?").params(probe.name()).query(Long.class).single();
    }

    @Test
    void fourRelaysAtOnceDeliverEveryEventOnceAndEachAggregatesEventsInOrder() throws Exception {
        Probe probe = new Probe();
        List<String> appended = appendAcrossTwelveAggregates(probe);

        relayAtOnce(probe, Map.of("relay-1", relay, "relay-2", relay, "relay-3", relay, "relay-4", relay));

        assertDeliveredOnceEachAggregateInOrder(probe, appended);
        assertThat(probe.threads).as("relays that delivered something").hasSizeGreaterThan(1);
    }

    /** The claim is about instances: the relays of two service instances on one database, each with its own pool. */
    @Test
    void theRelaysOfTwoInstancesAtOnceDeliverEveryEventOnceAndEachAggregatesEventsInOrder(@TempDir Path dataDir)
            throws Exception {
        try (ConfigurableApplicationContext second = SecondInstance.start(context, dataDir)) {
            OutboxRelay secondRelay = second.getBean(OutboxRelay.class);
            assertThat(secondRelay).isNotSameAs(relay);
            Probe probe = new Probe();
            List<String> appended = appendAcrossTwelveAggregates(probe);

            relayAtOnce(probe, Map.of("first-1", relay, "first-2", relay, "second-1", secondRelay, "second-2", secondRelay));

            assertDeliveredOnceEachAggregateInOrder(probe, appended);
            assertThat(probe.threads).as("relays that delivered something")
                    .anyMatch(t -> t.startsWith("first-")).anyMatch(t -> t.startsWith("second-"));
        }
    }

    private List<String> appendAcrossTwelveAggregates(Probe probe) {
        List<String> aggregates = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            aggregates.add("agg_" + UUID.randomUUID());
        }
        List<String> appended = new ArrayList<>();
        for (int i = 0; i < 72; i++) {
            appended.add(append(probe, aggregates.get(i % aggregates.size()), Instant.now()));
        }
        return appended;
    }

    /** Each relay on a thread of its own, named by the key, relaying at most 3 aggregates a time until none is pending. */
    private void relayAtOnce(Probe probe, Map<String, OutboxRelay> relays) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        relays.forEach((name, instance) -> threads.add(Thread.ofPlatform().name(name).start(() -> {
            try {
                start.await();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (pending(probe) > 0 && System.nanoTime() < deadline) {
                    instance.relayOnce(probe, 3);
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        })));
        start.countDown();
        for (Thread thread : threads) {
            assertThat(thread.join(Duration.ofSeconds(90))).as(thread.getName() + " finished").isTrue();
        }
        assertThat(failures).isEmpty();
    }

    private void assertDeliveredOnceEachAggregateInOrder(Probe probe, List<String> appended) {
        List<String> delivered = probe.delivered.stream().map(OutboxEvent::id).toList();
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(appended).doesNotHaveDuplicates();
        Map<String, List<Long>> seqsByAggregate = new LinkedHashMap<>();
        for (OutboxEvent e : probe.delivered) {
            seqsByAggregate.computeIfAbsent(e.aggregateId(), k -> new ArrayList<>()).add(e.seq());
        }
        assertThat(seqsByAggregate).hasSize(12).allSatisfy((aggregate, seqs) -> assertThat(seqs).isSorted());
        assertThat(pending(probe)).isZero();
    }

    @Test
    void anEventWhoseTransactionCommitsAfterLaterEventsIsStillRelayed() throws Exception {
        Probe probe = new Probe();
        CountDownLatch appendedLate = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        AtomicBoolean failed = new AtomicBoolean();
        String[] lateId = new String[1];
        Thread slow = Thread.ofVirtual().start(() -> {
            try {
                tx.executeWithoutResult(s -> {
                    lateId[0] = outbox.append(caller, new Outbox.Event("test.probe", "agg_" + UUID.randomUUID(),
                            "redemption.created", Instant.now(), "{}".getBytes(StandardCharsets.UTF_8)));
                    queue(probe, lateId[0]);
                    appendedLate.countDown();
                    try {
                        commit.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            } catch (RuntimeException e) {
                failed.set(true);
                appendedLate.countDown();
            }
        });
        assertThat(appendedLate.await(30, TimeUnit.SECONDS)).isTrue();
        String early = append(probe, "agg_" + UUID.randomUUID(), Instant.now());

        while (relay.relayOnce(probe) > 0) {
            // drain what is visible
        }
        assertThat(probe.delivered).extracting(OutboxEvent::id).containsExactly(early);

        commit.countDown();
        slow.join(Duration.ofSeconds(30));
        assertThat(failed).isFalse();
        while (relay.relayOnce(probe) > 0) {
            // the late commit is visible now
        }
        assertThat(probe.delivered).extracting(OutboxEvent::id).containsExactly(early, lateId[0]);
        // It had taken its number first: a relay that remembered "the highest id so far" would have skipped it.
        assertThat(probe.delivered.get(1).seq()).isLessThan(probe.delivered.get(0).seq());
    }

    @Test
    void whenAChannelFailsTheBatchIsRolledBackAndDeliveredAgain() {
        Probe probe = new Probe();
        String id = append(probe, "agg_" + UUID.randomUUID(), Instant.now());
        probe.failNext = true;

        assertThatThrownBy(() -> relay.relayOnce(probe)).hasMessageContaining("the destination is down");
        assertThat(pending(probe)).isEqualTo(1);

        assertThat(relay.relayOnce(probe)).isEqualTo(1);
        assertThat(probe.delivered).extracting(OutboxEvent::id).containsExactly(id);
        assertThat(pending(probe)).isZero();
    }

    @Test
    void thePurgeDeletesOldDeliveredEventsAndKeepsOnesStillPending() throws Exception {
        Probe probe = new Probe();
        Instant old = Instant.now().minus(40, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MILLIS);
        String delivered = append(probe, "agg_" + UUID.randomUUID(), old);
        String stillPending = append(probe, "agg_" + UUID.randomUUID(), old);
        String recent = append(probe, "agg_" + UUID.randomUUID(), Instant.now());
        jdbc.sql("delete from outbox_relay where channel = ? and event_id in (?, ?)").params(probe.name(), delivered, recent).update();
        // The service's own relay hands them to the webhook channel too; wait until it has.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (jdbc.sql("select count(*) from outbox_relay where channel = 'webhooks' and event_id in (?, ?, ?)")
                .params(delivered, stillPending, recent).query(Long.class).single() > 0) {
            assertThat(System.nanoTime()).as("webhook relay").isLessThan(deadline);
            Thread.sleep(50);
        }

        purge.purgeWrittenBefore(Instant.now().minus(30, ChronoUnit.DAYS));

        List<String> left = jdbc.sql("select id from outbox where id in (?, ?, ?)").params(delivered, stillPending, recent)
                .query(String.class).list();
        assertThat(left).containsExactlyInAnyOrder(stillPending, recent);
    }
}
