package io.tender.outbox;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code tender.events.*}: how the relay polls, how long events are kept, and the optional Kafka destination.
 *
 * @param retention     how long an event is kept after it was written (and delivered everywhere), then purged
 * @param purgeInterval how often the purge runs
 * @param pollInterval  how long the relay sleeps when it found nothing (a commit in this instance wakes it at once)
 * @param linger        how long the relay waits after a poll that delivered less than a full batch, so that the
 *                      commits of that moment are relayed by one poll rather than one poll each
 * @param batchSize     how many aggregates one relay transaction takes
 * @param kafka         Kafka destination; off unless {@code bootstrap-servers} is set
 */
@ConfigurationProperties("tender.events")
public record EventSettings(@DefaultValue("P30D") Duration retention,
                            @DefaultValue("PT10M") Duration purgeInterval,
                            @DefaultValue("PT1S") Duration pollInterval,
                            @DefaultValue("PT0.02S") Duration linger,
                            @DefaultValue("100") int batchSize,
                            @DefaultValue Kafka kafka) {

    /**
     * @param bootstrapServers Kafka brokers; empty turns Kafka publishing off
     * @param topic            topic for every event, keyed by aggregate id
     */
    public record Kafka(@DefaultValue("") String bootstrapServers, @DefaultValue("tender.events") String topic) {
    }
}
