package io.tender.provider;

import io.tender.api.Rejection;

/** Why no provider can serve a request; {@link ProviderProblems} words it. */
sealed interface ProviderRejection extends Rejection {

    /** Live mode, and the operator configured no provider for {@code type}. */
    record NotConfigured(RedemptionType type) implements ProviderRejection {
    }
}
