package io.tender.provider;

import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
import io.tender.auth.Mode;
import io.tender.provider.sandbox.SandboxProviders;
import org.springframework.stereotype.Component;

/**
 * Picks the provider for a request: test mode always talks to the sandbox; live mode to the adapter the operator
 * configured for the type, and without one the request is refused with 503 before anything is written.
 */
@Component
public class VoucherProviders {

    private final SandboxProviders sandbox;

    VoucherProviders(SandboxProviders sandbox) {
        this.sandbox = sandbox;
    }

    public VoucherProvider forMode(Mode mode, RedemptionType type) {
        if (mode == Mode.TEST) {
            return sandbox.of(type);
        }
        throw new ApiException(ProblemCode.SERVICE_UNAVAILABLE,
                "No live provider is configured for " + type.wire() + " on this service.");
    }
}
