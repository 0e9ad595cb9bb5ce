package io.tender.processor;

import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
import io.tender.api.RejectionProblems;
import org.springframework.stereotype.Component;

/** The processor registry's web edge: the problem each {@link ProcessorRejection} answers. */
@Component
class ProcessorProblems implements RejectionProblems<ProcessorRejection> {

    @Override
    public ApiException problem(ProcessorRejection rejection) {
        return switch (rejection) {
            case ProcessorRejection.NotConfigured r -> new ApiException(ProblemCode.SERVICE_UNAVAILABLE,
                    "No live payment processor is configured on this service.");
        };
    }
}
