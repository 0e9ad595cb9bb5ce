package io.tender.outbox;

import java.util.List;

/**
 * A destination the relay delivers every outbox event to (webhook fan-out, Kafka). {@link #deliver} runs inside the
 * relay's transaction: database writes it makes commit together with the events being marked delivered, and an
 * exception rolls everything back so that the same events are delivered again (at least once).
 */
public interface RelayChannel {

    /** A stable name, stored with each event this channel still has to deliver. */
    String name();

    /** Delivers events in the order given, which is the order of appending per aggregate. */
    void deliver(List<OutboxEvent> events);
}
