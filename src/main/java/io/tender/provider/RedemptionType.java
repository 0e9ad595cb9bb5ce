package io.tender.provider;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** The redemption types of the spec. Only the {@code vouchers} category exists. */
public enum RedemptionType {
    ONE_VOUCHER("vouchers.one_voucher", "one_voucher", List.of(
            new SourceField("pin", true, true, 16, 16, Pattern.compile("^[0-9]{16}$"), "must be 16 digits",
                    "16-digit voucher PIN", "1234567890121111"))),
    OTT("vouchers.ott", "ott", List.of(
            new SourceField("pin", true, true, 4, 64, Pattern.compile("^[A-Za-z0-9-]{4,64}$"),
                    "must be 4 to 64 letters, digits or '-'", "Voucher PIN or token", "T12345678901111"),
            new SourceField("phone_number", true, false, 3, 16, Pattern.compile("^\\+[1-9][0-9]{1,14}$"),
                    "must be an E.164 phone number such as +27821234567",
                    "Subscriber number (E.164) the voucher is tied to", "+27821234567"))),
    PROVIDER_C("vouchers.provider_c", "provider_c", List.of(
            new SourceField("token", true, true, 4, 64, Pattern.compile("^[A-Za-z0-9-]{4,64}$"),
                    "must be 4 to 64 letters, digits or '-'", "Voucher token or PIN", "T12345678901111")));

    private final String wire;
    private final String providerPrefix;
    private final List<SourceField> sourceFields;

    RedemptionType(String wire, String providerPrefix, List<SourceField> sourceFields) {
        this.wire = wire;
        this.providerPrefix = providerPrefix;
        this.sourceFields = sourceFields;
    }

    /** The fields of this type's {@code source} object; no other property is allowed. */
    public List<SourceField> sourceFields() {
        return sourceFields;
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
