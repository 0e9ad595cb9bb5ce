package io.tender.redemption;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.List;
import java.util.Map;

/**
 * The create body as the OpenAPI document describes it. Requests are read by {@link NewRedemption#parse}, which
 * enforces the same rules and reports every violation at once.
 */
@Schema(name = "CreateRedemptionRequest", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
record CreateRedemptionRequest(
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED,
                allowableValues = {"vouchers.one_voucher", "vouchers.ott", "vouchers.provider_c"}) String type,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Voucher credentials; the shape is chosen by `type`.",
                oneOf = {OneVoucherSource.class, OttSource.class, ProviderCSource.class}) Object source,
        @Schema(minimum = "1", maximum = "99999999", description = "Cents. Omitted: the voucher's full value is redeemed. "
                + "Given: a one-step (partial) redeem on providers without holds.") Long amount,
        @Schema(minLength = 3, maxLength = 3, pattern = "^[A-Z]{3}$",
                description = "ISO 4217; required when `amount` is given. Omitted: the voucher's native currency.") String currency,
        @Schema(description = "Provider-specific options forwarded on each operation.") Map<String, Object> redemptionOptions,
        @ArraySchema(maxItems = 20, schema = @Schema(maxLength = 255),
                arraySchema = @Schema(description = "At most 20 strings of at most 255 characters.")) List<String> relatedIds,
        @Schema(description = "At most 20 keys; key names 1 to 40 characters; values strings of at most 500 characters.",
                maxProperties = 20) Map<String, String> metadata,
        @Schema(minLength = 1, maxLength = 255) String externalReference) {

    @Schema(name = "OneVoucherSource", description = "vouchers.one_voucher", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
    record OneVoucherSource(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, pattern = "^[0-9]{16}$",
            description = "16-digit voucher PIN (sensitive)") String pin) {
    }

    @Schema(name = "OttSource", description = "vouchers.ott", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
    record OttSource(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, pattern = "^[A-Za-z0-9-]{4,64}$",
            description = "Voucher PIN or token (sensitive)") String pin,
                     @Schema(requiredMode = Schema.RequiredMode.REQUIRED, pattern = "^\\+[1-9][0-9]{1,14}$",
                             description = "E.164 subscriber number tied to the voucher") String phoneNumber) {
    }

    @Schema(name = "ProviderCSource", description = "vouchers.provider_c", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
    record ProviderCSource(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, pattern = "^[A-Za-z0-9-]{4,64}$",
            description = "Voucher token or PIN (sensitive)") String token) {
    }
}
