package io.tender.provider;

import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
import io.tender.api.RejectionProblems;
import org.springframework.stereotype.Component;

/** The provider registry's web edge: the problem each {@link ProviderRejection} answers. */
@Component
class ProviderProblems implements RejectionProblems<ProviderRejection> {

    @Override
    public ApiException problem(ProviderRejection rejection) {
        return switch (rejection) {
            case ProviderRejection.NotConfigured r -> new ApiException(ProblemCode.SERVICE_UNAVAILABLE,
                    "No live provider is configured for " + r.type().wire() + " on this service.");
        };
    }
}
