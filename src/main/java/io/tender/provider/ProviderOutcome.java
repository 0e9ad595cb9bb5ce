package io.tender.provider;

import java.util.Map;

/**
 * What a provider call came to. {@link Unknown} is a real state, not an error: the request may have moved value
 * at the provider (a timeout after sending, a reset, a 5xx), so it must be resolved before anything is reported.
 */
public sealed interface ProviderOutcome {

    /** The provider did it. {@code reference} is what the provider returned, secrets already masked. */
    record Approved(long amount, String currency, Map<String, Object> reference, ChangeVoucher changeVoucher)
            implements ProviderOutcome {
        public Approved(long amount, String currency, Map<String, Object> reference) {
            this(amount, currency, reference, null);
        }
    }

    /** The provider refused; nothing moved. {@code errorCode} is {@code <provider>.<code>} or a plain upper-case code. */
    record Declined(String errorCode, String message) implements ProviderOutcome {
    }

    /** We cannot tell whether the provider did it. */
    record Unknown(String errorCode, String message) implements ProviderOutcome {
    }
}
