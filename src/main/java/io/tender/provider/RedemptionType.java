package io.tender.provider;

import java.util.Arrays;
import java.util.Optional;

/** The redemption types of the spec. Only the {@code vouchers} category exists. */
public enum RedemptionType {
    ONE_VOUCHER("vouchers.one_voucher", "one_voucher"),
    OTT("vouchers.ott", "ott"),
    PROVIDER_C("vouchers.provider_c", "provider_c");

    private final String wire;
    private final String providerPrefix;

    RedemptionType(String wire, String providerPrefix) {
        this.wire = wire;
        this.providerPrefix = providerPrefix;
    }

    public String wire() {
        return wire;
    }

    public String category() {
        return "vouchers";
    }

    /** The namespace of this provider's error codes: {@code <provider>.<code>}. */
    public String providerPrefix() {
        return providerPrefix;
    }

    public String errorCode(String code) {
        return providerPrefix + "." + code;
    }

    public static Optional<RedemptionType> fromWire(String wire) {
        return Arrays.stream(values()).filter(t -> t.wire.equals(wire)).findFirst();
    }

    public static String allowedValues() {
        return String.join(", ", Arrays.stream(values()).map(RedemptionType::wire).toList());
    }
}
