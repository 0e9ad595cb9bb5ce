package io.tender.billing;

import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;

import java.util.Map;

/** A bill as the API shows it. */
@Schema(name = "Bill")
record BillView(
        @Schema(pattern = "^bill_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(pattern = "^[a-zA-Z0-9_-]+$", description = "The merchant's own reference, unique per merchant and mode; never starts with `bcus_` or `bill_`.", requiredMode = Schema.RequiredMode.REQUIRED) String externalReference,
        @Schema(pattern = "^bcus_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String customerId,
        @Schema(pattern = "^bacc_[a-f0-9]{24}$", description = "Present only when the bill was raised against an account.") String accountId,
        @Schema(allowableValues = {"unpaid", "paid", "voided"}, requiredMode = Schema.RequiredMode.REQUIRED) String status,
        @Schema(example = "ZAR", requiredMode = Schema.RequiredMode.REQUIRED) String currency,
        @Schema(minimum = "1", maximum = "99999999", description = "Minor units.", requiredMode = Schema.RequiredMode.REQUIRED) long amountDue,
        @Schema(minimum = "0", description = "Minor units; starts at 0.", requiredMode = Schema.RequiredMode.REQUIRED) long amountPaid,
        @Schema(description = "`amount_due` minus `amount_paid`; below zero only after an overpayment the rules allowed.", requiredMode = Schema.RequiredMode.REQUIRED) long amountRemaining,
        @Schema(format = "date", example = "2026-05-20", requiredMode = Schema.RequiredMode.REQUIRED) String billDate,
        @Schema(format = "date", example = "2026-06-20", requiredMode = Schema.RequiredMode.REQUIRED) String dueDate,
        @Schema(description = "Which payments the bill accepts.", requiredMode = Schema.RequiredMode.REQUIRED) PaymentRules paymentRules,
        Map<String, String> metadata,
        @Schema(pattern = "^ob_[a-f0-9]{24}$", description = "The bill's obligation, as `data.id` of `obligation.amount_applied`.", requiredMode = Schema.RequiredMode.REQUIRED) String obligationId,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt) {

    static BillView of(Bill b) {
        return new BillView(b.id(), b.externalReference(), b.customerId(), b.accountId(), b.status().wire(),
                b.currency(), b.amountDue(), b.amountPaid(), b.amountRemaining(), b.billDate().toString(),
                b.dueDate().toString(), b.paymentRules(), b.metadata(), b.obligationId(),
                Timestamps.format(b.createdAt()), Timestamps.format(b.updatedAt()));
    }
}
