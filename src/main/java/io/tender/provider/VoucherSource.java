package io.tender.provider;

import io.tender.api.JsonInput;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The credentials of a voucher, one shape per redemption type (spec "Source"). The PIN or token is a secret: the
 * records' {@code toString} masks it, and {@link #masked()} is the only form that leaves the service.
 */
public sealed interface VoucherSource {

    RedemptionType type();

    /** The PIN or token, for the provider only. */
    String secret();

    /** The source as responses show it: secrets masked to their last four characters. */
    Map<String, String> masked();

    /** The source in full, for sealing at rest. */
    Map<String, String> full();

    /**
     * Reads the {@code source} object of a request for the type: its own fields only, each checked against the
     * type's {@link SourceField} rules. Null (with the errors recorded in {@code in}) when anything is wrong.
     */
    static VoucherSource read(RedemptionType type, JsonInput in) {
        in.allow(type.sourceFields().stream().map(SourceField::name).collect(Collectors.toSet()));
        Map<String, String> fields = new HashMap<>();
        for (SourceField field : type.sourceFields()) {
            String value = in.string(field.name(), field.required(), field.minLength(), field.maxLength(),
                    field.pattern(), field.rule());
            if (value != null) {
                fields.put(field.name(), value);
            }
        }
        return fields.size() == type.sourceFields().size() && in.valid() ? of(type, fields) : null;
    }

    static VoucherSource of(RedemptionType type, Map<String, String> fields) {
        return switch (type) {
            case ONE_VOUCHER -> new OneVoucherPin(fields.get("pin"));
            case OTT -> new OttVoucher(fields.get("pin"), fields.get("phone_number"));
            case PROVIDER_C -> new ProviderCToken(fields.get("token"));
        };
    }

    record OneVoucherPin(String pin) implements VoucherSource {
        public RedemptionType type() {
            return RedemptionType.ONE_VOUCHER;
        }

        public String secret() {
            return pin;
        }

        public Map<String, String> masked() {
            return Map.of("pin", Masking.mask(pin));
        }

        public Map<String, String> full() {
            return Map.of("pin", pin);
        }

        @Override
        public String toString() {
            return "OneVoucherPin" + masked();
        }
    }

    record OttVoucher(String pin, String phoneNumber) implements VoucherSource {
        public RedemptionType type() {
            return RedemptionType.OTT;
        }

        public String secret() {
            return pin;
        }

        public Map<String, String> masked() {
            Map<String, String> shown = new LinkedHashMap<>();
            shown.put("pin", Masking.mask(pin));
            shown.put("phone_number", phoneNumber);
            return shown;
        }

        public Map<String, String> full() {
            return Map.of("pin", pin, "phone_number", phoneNumber);
        }

        @Override
        public String toString() {
            return "OttVoucher" + masked();
        }
    }

    record ProviderCToken(String token) implements VoucherSource {
        public RedemptionType type() {
            return RedemptionType.PROVIDER_C;
        }

        public String secret() {
            return token;
        }

        public Map<String, String> masked() {
            return Map.of("token", Masking.mask(token));
        }

        public Map<String, String> full() {
            return Map.of("token", token);
        }

        @Override
        public String toString() {
            return "ProviderCToken" + masked();
        }
    }
}
