package io.tender.apiversion;

import java.util.Optional;

/**
 * What a stored payment knows about its attempt in flight, for versions that told the stages of {@code pending} apart
 * (before 2026-06-01). Implemented by the module that owns payments, so that this one knows none of their types.
 */
public interface PaymentProgress {

    /** The stage of an in-flight payment, by the status that version used for it. */
    enum Stage {
        /** Recorded, and not yet sent to the processor. */
        INITIATING,
        /** The customer must act: 3-D Secure, a bank app's approval, a redirect. */
        PENDING_ACTION,
        /** The processor has it and has not answered. */
        PROCESSING;

        public String wire() {
            return name().toLowerCase();
        }
    }

    /** The payment's stage if it is in flight now; empty when it is not (or there is no such payment). */
    Optional<Stage> stageOf(String paymentId);

    /** Knows no payment: every in-flight payment reads as {@code processing}. */
    PaymentProgress NONE = id -> Optional.empty();
}
