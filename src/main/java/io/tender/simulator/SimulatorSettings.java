package io.tender.simulator;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code tender.simulator.*}: the provider simulator's own settings, not the service's.
 *
 * @param delay  Simulator only (docs/provider-protocol.md, {@code SIMULATOR_DELAY}): added to every money-moving
 *               answer, after the work is done
 * @param apiKey Simulator only (docs/provider-protocol.md, {@code SIMULATOR_API_KEY}): the bearer key callers must
 *               present; empty: none is asked for
 */
@ConfigurationProperties("tender.simulator")
record SimulatorSettings(@DefaultValue("PT0S") Duration delay, @DefaultValue("") String apiKey) {
}
