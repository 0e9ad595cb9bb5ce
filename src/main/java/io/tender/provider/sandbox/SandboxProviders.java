package io.tender.provider.sandbox;

import io.tender.provider.ProviderCapabilities;
import io.tender.provider.ProviderCapabilities.ChangeVoucherDelivery;
import io.tender.provider.RedemptionType;
import io.tender.provider.VoucherProvider;
import org.springframework.stereotype.Component;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The three sandbox providers of decisions §3, one per redemption type. They have no hold capability unless the
 * operator names their types in {@code tender.providers.sandbox.hold-types} (to try the hold flow in test mode).
 */
@Component
public class SandboxProviders {

    private final Map<RedemptionType, VoucherProvider> providers = new EnumMap<>(RedemptionType.class);
    private final SandboxVoucherLedger ledger;

    SandboxProviders(SandboxVoucherLedger ledger, SandboxProviderSettings settings) {
        List<String> holdTypes = settings.holdTypes();
        this.ledger = ledger;
        // Every call is a transaction of its own on a connection of its own, even under a caller's: its commit may
        // skip waiting for the disk (SandboxVoucherLedger.once), which must never apply to anything a caller writes.
        add(new SandboxVoucherProvider(RedemptionType.ONE_VOUCHER, new ProviderCapabilities("OneVoucher (sandbox)",
                "16-digit stored-value voucher PIN; partial redeems return a change voucher with its amount.",
                "ZAR", holdTypes.contains("vouchers.one_voucher"), true, false, true, ChangeVoucherDelivery.INLINE), 10_000, ledger));
        add(new SandboxVoucherProvider(RedemptionType.OTT, new ProviderCapabilities("OTT (sandbox)",
                "Voucher PIN tied to a subscriber phone number; change is sent to that number by SMS.",
                "ZAR", holdTypes.contains("vouchers.ott"), true, true, true, ChangeVoucherDelivery.SMS), 5_000, ledger));
        add(new SandboxVoucherProvider(RedemptionType.PROVIDER_C, new ProviderCapabilities("Provider C (sandbox)",
                "Voucher token; partial redeems return a change voucher without an amount (look its balance up).",
                "ZAR", holdTypes.contains("vouchers.provider_c"), true, true, true, ChangeVoucherDelivery.INLINE), 20_000, ledger));
    }

    private void add(VoucherProvider provider) {
        providers.put(provider.type(), provider);
    }

    public VoucherProvider of(RedemptionType type) {
        return providers.get(type);
    }

    public List<VoucherProvider> all() {
        return List.copyOf(providers.values());
    }

    /** Every call the sandbox answered (the provider simulator shows this as its ledger). */
    public List<Map<String, Object>> ledger() {
        return ledger.entries().stream().map(e -> {
            Map<String, Object> entry = new java.util.LinkedHashMap<>();
            entry.put("operation_key", e.operationKey());
            entry.put("type", e.type());
            entry.put("kind", e.kind());
            entry.put("voucher", e.voucher());
            entry.put("amount", e.amount());
            entry.put("result", e.result());
            if (e.errorCode() != null) {
                entry.put("error_code", e.errorCode());
            }
            return entry;
        }).toList();
    }
}
