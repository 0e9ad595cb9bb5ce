package io.tender.payment;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;

import java.util.Map;

/** A saved payment method as the API shows it: of a card only its scheme, bin, last4 and expiry. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "PaymentMethod")
record PaymentMethodView(
        @Schema(pattern = "^pm_[a-f0-9]{24}$", example = "pm_0193f1c2a4b5c6d7e8f9a0b1", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(allowableValues = {"card"}, requiredMode = Schema.RequiredMode.REQUIRED) String type,
        @Schema(description = "`{scheme, bin, last4, exp_month, exp_year}`; never the card number or security code.")
        Map<String, Object> card,
        @Schema(pattern = "^bcus_[a-f0-9]{24}$") String customerId,
        @Schema(format = "date-time", example = "2026-05-20T08:25:01.014Z", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt) {

    @SuppressWarnings("unchecked")
    static PaymentMethodView of(SavedPaymentMethod m) {
        Object card = m.details().get("card");
        return new PaymentMethodView(m.id(), m.type(), card instanceof Map<?, ?> c ? (Map<String, Object>) c : null,
                m.customerId(), Timestamps.format(m.createdAt()));
    }
}
