package io.tender.redemption;

import io.tender.api.Currencies;
import io.tender.api.JsonInput;
import io.tender.provider.RedemptionType;
import io.tender.provider.VoucherSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** A validated create request (spec "Redemptions: create" and decisions §2). */
record NewRedemption(RedemptionType type, VoucherSource source, Long amount, String currency,
                     ObjectNode redemptionOptions, List<String> relatedIds, Map<String, String> metadata,
                     String externalReference) {

    static final long MAX_AMOUNT = 99_999_999;
    private static final Set<String> FIELDS = Set.of("type", "source", "amount", "currency", "redemption_options",
            "related_ids", "metadata", "external_reference");
    private static final Pattern SIXTEEN_DIGITS = Pattern.compile("^[0-9]{16}$");
    private static final Pattern VOUCHER_TOKEN = Pattern.compile("^[A-Za-z0-9-]{4,64}$");
    static final Pattern E164 = Pattern.compile("^\\+[1-9][0-9]{1,14}$");

    static NewRedemption parse(JsonNode body) {
        JsonInput in = JsonInput.body(body).allow(FIELDS);
        String typeName = in.string("type", true);
        RedemptionType type = null;
        if (typeName != null) {
            type = RedemptionType.fromWire(typeName).orElse(null);
            in.check(type != null, "type", "must be one of " + RedemptionType.allowedValues());
        }
        JsonInput sourceInput = in.object("source", true);
        VoucherSource source = sourceInput == null || type == null ? null : source(type, sourceInput);
        Long amount = in.integer("amount", false, 1, MAX_AMOUNT);
        String currency = Currencies.read(in, "currency", false);
        in.check(!in.has("amount") || in.has("currency"), "currency", "is required when amount is given");
        ObjectNode options = in.rawObject("redemption_options");
        List<String> relatedIds = in.strings("related_ids", 20, 255);
        Map<String, String> metadata = in.metadata("metadata");
        String externalReference = in.string("external_reference", false, 1, 255, null, null);
        in.throwIfInvalid();
        return new NewRedemption(type, source, amount, currency, options,
                relatedIds == null ? List.of() : relatedIds, metadata, externalReference);
    }

    /** The source object for a type: its own fields only, each checked (spec "Source"). */
    static VoucherSource source(RedemptionType type, JsonInput in) {
        Map<String, String> fields = new HashMap<>();
        switch (type) {
            case ONE_VOUCHER -> {
                in.allow(Set.of("pin"));
                fields.put("pin", in.string("pin", true, 16, 16, SIXTEEN_DIGITS, "must be 16 digits"));
            }
            case OTT -> {
                in.allow(Set.of("pin", "phone_number"));
                fields.put("pin", in.string("pin", true, 4, 64, VOUCHER_TOKEN,
                        "must be 4 to 64 letters, digits or '-'"));
                fields.put("phone_number", in.string("phone_number", true, 3, 16, E164,
                        "must be an E.164 phone number such as +27821234567"));
            }
            case PROVIDER_C -> {
                in.allow(Set.of("token"));
                fields.put("token", in.string("token", true, 4, 64, VOUCHER_TOKEN,
                        "must be 4 to 64 letters, digits or '-'"));
            }
        }
        return fields.containsValue(null) ? null : VoucherSource.of(type, fields);
    }
}
