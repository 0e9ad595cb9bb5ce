package io.tender.billing;

import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;

import java.util.Map;

/** An account as the API shows it. */
@Schema(name = "Account")
record AccountView(
        @Schema(pattern = "^bacc_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(description = "The merchant's own reference, unique per merchant and mode; never starts with `bacc_`.", requiredMode = Schema.RequiredMode.REQUIRED) String externalReference,
        @Schema(pattern = "^bcus_[a-f0-9]{24}$", description = "The owning customer.", requiredMode = Schema.RequiredMode.REQUIRED) String customerId,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String name,
        @Schema(description = "ISO 4217; omitted until set.", example = "ZAR") String currency,
        @Schema(description = "Minor units; positive is owed, negative is credit. Omitted until set.") Long balance,
        @Schema(description = "Which payments the account balance accepts; omitted: it cannot be paid against.") PaymentRules paymentRules,
        Map<String, String> metadata,
        @Schema(pattern = "^ob_[a-f0-9]{24}$", description = "The obligation of the account balance, as `data.id` of `obligation.amount_applied`.", requiredMode = Schema.RequiredMode.REQUIRED) String obligationId,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt) {

    static AccountView of(Account a) {
        return new AccountView(a.id(), a.externalReference(), a.customerId(), a.name(), a.currency(),
                a.ledger().balance(), a.paymentRules(), a.metadata(), a.obligationId(),
                Timestamps.format(a.createdAt()), Timestamps.format(a.updatedAt()));
    }
}
