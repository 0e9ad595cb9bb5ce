package io.tender.processor;

import io.tender.api.Rejection;

/** Why no processor can take a payment; {@link ProcessorProblems} words it. */
sealed interface ProcessorRejection extends Rejection {

    /** Live mode, and the operator configured no processor ({@code tender.processor.live.base-url}). */
    record NotConfigured() implements ProcessorRejection {
    }
}
