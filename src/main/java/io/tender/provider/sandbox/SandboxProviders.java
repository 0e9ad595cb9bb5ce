package io.tender.provider.sandbox;

import io.tender.provider.ProviderCapabilities;
import io.tender.provider.ProviderCapabilities.ChangeVoucherDelivery;
import io.tender.provider.RedemptionType;
import io.tender.provider.VoucherProvider;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.EnumMap;
import java.util.Map;

/** The three sandbox providers of decisions §3, one per redemption type. */
@Component
public class SandboxProviders {

    private final Map<RedemptionType, VoucherProvider> providers = new EnumMap<>(RedemptionType.class);

    SandboxProviders(SandboxVoucherLedger ledger, TransactionTemplate tx) {
        add(new SandboxVoucherProvider(RedemptionType.ONE_VOUCHER, new ProviderCapabilities("OneVoucher (sandbox)",
                "16-digit stored-value voucher PIN; partial redeems return a change voucher with its amount.",
                "ZAR", false, true, false, true, ChangeVoucherDelivery.INLINE), 10_000, ledger, tx));
        add(new SandboxVoucherProvider(RedemptionType.OTT, new ProviderCapabilities("OTT (sandbox)",
                "Voucher PIN tied to a subscriber phone number; change is sent to that number by SMS.",
                "ZAR", false, true, true, true, ChangeVoucherDelivery.SMS), 5_000, ledger, tx));
        add(new SandboxVoucherProvider(RedemptionType.PROVIDER_C, new ProviderCapabilities("Provider C (sandbox)",
                "Voucher token; partial redeems return a change voucher without an amount (look its balance up).",
                "ZAR", false, true, true, true, ChangeVoucherDelivery.INLINE), 20_000, ledger, tx));
    }

    private void add(VoucherProvider provider) {
        providers.put(provider.type(), provider);
    }

    public VoucherProvider of(RedemptionType type) {
        return providers.get(type);
    }
}
