package io.tender.redemption;

import io.tender.api.Currencies;
import io.tender.api.JsonInput;
import io.tender.provider.RedemptionType;
import io.tender.provider.VoucherSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** A validated create request (spec "Redemptions: create" and decisions §2). */
record NewRedemption(RedemptionType type, VoucherSource source, Long amount, String currency,
                     ObjectNode redemptionOptions, List<String> relatedIds, Map<String, String> metadata,
                     String externalReference) {

    static final long MAX_AMOUNT = 99_999_999;
    private static final Set<String> FIELDS = Set.of("type", "source", "amount", "currency", "redemption_options",
            "related_ids", "metadata", "external_reference");

    static NewRedemption parse(JsonNode body) {
        JsonInput in = JsonInput.body(body).allow(FIELDS);
        String typeName = in.string("type", true);
        RedemptionType type = null;
        if (typeName != null) {
            type = RedemptionType.fromWire(typeName).orElse(null);
            in.check(type != null, "type", "must be one of " + RedemptionType.allowedValues());
        }
        JsonInput sourceInput = in.object("source", true);
        VoucherSource source = sourceInput == null || type == null ? null : VoucherSource.read(type, sourceInput);
        Long amount = in.integer("amount", false, 1, MAX_AMOUNT);
        String currency = Currencies.read(in, "currency", false);
        in.check(!in.has("amount") || in.has("currency"), "currency", "is required when amount is given");
        ObjectNode options = in.rawObject("redemption_options");
        List<String> relatedIds = in.strings("related_ids", 20, 255);
        Map<String, String> metadata = in.metadata("metadata");
        String externalReference = in.line("external_reference", false, 1, 255);
        in.throwIfInvalid();
        return new NewRedemption(type, source, amount, currency, options,
                relatedIds == null ? List.of() : relatedIds, metadata, externalReference);
    }

}
