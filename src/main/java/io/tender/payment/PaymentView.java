package io.tender.payment;

import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;

/**
 * A payment as the API shows it. The spec names Collect's payment fields without their shapes; this shows the ones
 * a payment made today has, plus {@code obligation_id}, the obligation it was made for.
 */
@Schema(name = "Payment")
public record PaymentView(
        @Schema(pattern = "^pay_[a-f0-9]{24}$", example = "pay_0193f1c2a4b5c6d7e8f9a0b1", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(allowableValues = {"draft", "pending", "succeeded", "failed", "cancelled", "expired"}, requiredMode = Schema.RequiredMode.REQUIRED) String status,
        @Schema(description = "Minor units.", requiredMode = Schema.RequiredMode.REQUIRED) long amount,
        @Schema(minLength = 3, maxLength = 3, example = "ZAR", requiredMode = Schema.RequiredMode.REQUIRED) String currency,
        @Schema(allowableValues = {"test", "live"}, requiredMode = Schema.RequiredMode.REQUIRED) String mode,
        @Schema(description = "Minor units received.", requiredMode = Schema.RequiredMode.REQUIRED) long paidAmount,
        @Schema(pattern = "^ob_[a-f0-9]{24}$", description = "The obligation (customer balance, account balance or bill) the payment is for.") String obligationId,
        @Schema(format = "date-time", example = "2026-05-20T08:25:01.014Z", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", example = "2026-05-20T08:25:01.014Z", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt) {

    public static PaymentView of(Payment p) {
        return new PaymentView(p.id(), p.status().wire(), p.amount(), p.currency(), p.mode().wire(), p.paidAmount(),
                p.obligationId(), Timestamps.format(p.createdAt()), Timestamps.format(p.updatedAt()));
    }
}
