package io.tender.processor;

import io.tender.auth.Mode;
import io.tender.processor.live.LiveProcessor;
import io.tender.processor.sandbox.SandboxProcessor;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * Picks the processor for a payment: test mode always the sandbox; live mode the processor the operator configured
 * ({@code tender.processor.live.base-url}), and without one the request is refused with 503 before anything is written.
 *
 * @param sandbox the sandbox, also for its customer pages (3-D Secure, bank) in test mode
 * @param live    the operator's live processor, when one is configured
 */
@Component
public record PaymentProcessors(SandboxProcessor sandbox, LiveProcessor live) {

    public PaymentProcessor forMode(Mode mode) {
        return find(mode).orElseThrow(() -> new ProcessorRejection.NotConfigured().thrown());
    }

    public Optional<PaymentProcessor> find(Mode mode) {
        return mode == Mode.TEST ? Optional.of(sandbox) : live.processor();
    }
}
