package io.tender.provider;

import io.tender.auth.Mode;
import io.tender.provider.live.LiveProviders;
import io.tender.provider.sandbox.SandboxProviders;
import org.springframework.stereotype.Component;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Picks the provider for a request: test mode always talks to the sandbox; live mode to the adapter the operator
 * configured for the type, and without one the request is refused with 503 before anything is written.
 */
@Component
public record VoucherProviders(SandboxProviders sandbox, LiveProviders live) {

    public VoucherProvider forMode(Mode mode, RedemptionType type) {
        return find(mode, type).orElseThrow(() -> new ProviderRejection.NotConfigured(type).thrown());
    }

    public Optional<VoucherProvider> find(Mode mode, RedemptionType type) {
        return mode == Mode.TEST ? Optional.of(sandbox.of(type)) : live.of(type);
    }

    /** The providers a key of this mode can use, in the order of the redemption types. */
    public List<VoucherProvider> available(Mode mode) {
        return (mode == Mode.TEST ? sandbox.all() : live.all()).stream()
                .sorted(Comparator.comparing(VoucherProvider::type)).toList();
    }
}
