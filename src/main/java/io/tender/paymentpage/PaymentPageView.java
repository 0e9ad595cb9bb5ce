package io.tender.paymentpage;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;
import io.tender.payment.PaymentMethodType;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A payment page as the API shows it (decisions §7). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "PaymentPage")
record PaymentPageView(
        @Schema(pattern = "^pp_([a-f0-9]{32}|[a-f0-9]{24})$", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(allowableValues = {"active", "inactive", "expired"}, requiredMode = Schema.RequiredMode.REQUIRED,
                description = "Only an active page takes payments; visitors of the others see that it is closed.") String status,
        @Schema(format = "uri", requiredMode = Schema.RequiredMode.REQUIRED,
                description = "The public page payers open: `{public base}/pages/{id}`.") String pageUrl,
        @Schema(maxLength = 200, requiredMode = Schema.RequiredMode.REQUIRED) String title,
        @Schema(maxLength = 1000) String description,
        @Schema(minLength = 3, maxLength = 3, example = "ZAR", requiredMode = Schema.RequiredMode.REQUIRED) String currency,
        @JsonInclude(JsonInclude.Include.ALWAYS)
        @Schema(minimum = "1", maximum = "99999999", nullable = true, requiredMode = Schema.RequiredMode.REQUIRED,
                description = "Minor units of a fixed amount; null when the payer chooses (`amount_options`).") Long amount,
        AmountOptionsBody amountOptions,
        @Schema(format = "uri", maxLength = 500, description = "The page's back link.") String returnUrl,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) boolean requiresCustomerDetails,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) boolean requiresDeliveryDetails,
        @ArraySchema(maxItems = 10) List<CustomFieldBody> customFields,
        @Schema(description = "The account (id or external_reference) each payment is applied to.") String account,
        @ArraySchema(schema = @Schema(allowableValues = {"card", "pay_by_bank", "capitec_pay", "mobile_money"}),
                arraySchema = @Schema(requiredMode = Schema.RequiredMode.REQUIRED)) List<String> visiblePaymentMethods,
        @Schema(maxLength = 255, pattern = "^[a-zA-Z0-9_-]+$") String externalReference,
        Map<String, String> metadata,
        @Schema(format = "date-time", description = "When the page stops taking payments (status `expired`).") String expiresAt,
        @Schema(allowableValues = {"test", "live"}, requiredMode = Schema.RequiredMode.REQUIRED) String mode,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "PaymentPageAmountOptions", description = "The payer chooses an amount from `min` to `max`; "
            + "`presets` are offered first (at most 6, distinct, within the range).")
    record AmountOptionsBody(
            @Schema(minimum = "1", maximum = "99999999", requiredMode = Schema.RequiredMode.REQUIRED) long min,
            @Schema(minimum = "1", maximum = "99999999", requiredMode = Schema.RequiredMode.REQUIRED) long max,
            @ArraySchema(maxItems = 6, schema = @Schema(type = "integer", format = "int64", minimum = "1",
                    maximum = "99999999")) List<Long> presets) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "PaymentPageCustomField", description = "One more thing the page asks the payer.")
    record CustomFieldBody(
            @Schema(pattern = "^[a-z][a-z0-9_]{0,39}$", requiredMode = Schema.RequiredMode.REQUIRED,
                    description = "Unique on the page; the key of the answer in a transaction's custom_fields.") String key,
            @Schema(minLength = 1, maxLength = 100, requiredMode = Schema.RequiredMode.REQUIRED) String label,
            @Schema(allowableValues = {"text", "dropdown"}, requiredMode = Schema.RequiredMode.REQUIRED) String type,
            @ArraySchema(maxItems = 20, schema = @Schema(minLength = 1, maxLength = 100),
                    arraySchema = @Schema(description = "The choices of a dropdown (required there, distinct); text fields have none.")) List<String> options,
            @Schema(defaultValue = "false") Boolean required,
            @Schema(minLength = 1, maxLength = 500, description = "Prefilled; for a dropdown, one of its options.") String defaultValue) {
    }

    static PaymentPageView of(PaymentPage p, String publicBase, Instant now) {
        return new PaymentPageView(p.id(), p.status(now).wire(), pageUrl(publicBase, p.id()), p.title(),
                p.description(), p.currency(), p.amount(), p.amountOptions() == null ? null
                : new AmountOptionsBody(p.amountOptions().min(), p.amountOptions().max(), p.amountOptions().presets()),
                p.returnUrl(), p.requiresCustomerDetails(), p.requiresDeliveryDetails(),
                p.customFields().stream().map(f -> new CustomFieldBody(f.key(), f.label(), f.type(), f.options(),
                        f.required(), f.defaultValue())).toList(), p.account(),
                p.visiblePaymentMethods() == null ? PaymentMethodType.WIRE : p.visiblePaymentMethods(),
                p.externalReference(), p.metadata(), Timestamps.format(p.expiresAt()), p.mode().wire(),
                Timestamps.format(p.createdAt()), Timestamps.format(p.updatedAt()));
    }

    static String pageUrl(String publicBase, String id) {
        return publicBase + "/pages/" + id;
    }
}
