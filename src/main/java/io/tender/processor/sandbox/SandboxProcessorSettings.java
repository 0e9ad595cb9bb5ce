package io.tender.processor.sandbox;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code tender.processor.sandbox.*}.
 *
 * @param approvalDelay how long the sandbox's simulated customer takes to approve a push payment in the bank's app
 */
@ConfigurationProperties("tender.processor.sandbox")
record SandboxProcessorSettings(@DefaultValue("PT3S") Duration approvalDelay) {

    SandboxProcessorSettings {
        if (approvalDelay.isNegative()) {
            throw new IllegalArgumentException("tender.processor.sandbox.approval-delay must not be negative");
        }
    }
}
