package io.tender.processor.sandbox;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code tender.processor.sandbox.*}.
 *
 * @param approvalDelay how long the sandbox's simulated customer takes to approve a push payment in the bank's app
 * @param refundDelay   how long the sandbox processor takes to finish a refund it accepted for later (an amount
 *                      ending in 52)
 */
@ConfigurationProperties("tender.processor.sandbox")
record SandboxProcessorSettings(@DefaultValue("PT3S") Duration approvalDelay,
                                @DefaultValue("PT5S") Duration refundDelay) {

    SandboxProcessorSettings {
        if (approvalDelay.isNegative()) {
            throw new IllegalArgumentException("tender.processor.sandbox.approval-delay must not be negative");
        }
        if (refundDelay.isNegative()) {
            throw new IllegalArgumentException("tender.processor.sandbox.refund-delay must not be negative");
        }
    }
}
