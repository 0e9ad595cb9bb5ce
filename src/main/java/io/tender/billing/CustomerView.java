package io.tender.billing;

import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;

import java.util.Map;

/** A customer as the API shows it: the spec's fields, then decisions §4's, then ours. */
@Schema(name = "Customer")
record CustomerView(
        @Schema(pattern = "^bcus_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(description = "The merchant's own reference, unique per merchant and mode; never starts with `bcus_`.", requiredMode = Schema.RequiredMode.REQUIRED) String externalReference,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String name,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String email,
        @Schema(description = "E.164", example = "+27821234567") String phone,
        @Schema(description = "ISO 4217; omitted until set.", example = "ZAR") String currency,
        @Schema(description = "Minor units; positive is owed by the customer, negative is credit. Omitted until set.") Long balance,
        @Schema(description = "Which payments the customer balance accepts; omitted: it cannot be paid against.") PaymentRules paymentRules,
        Map<String, String> metadata,
        @Schema(pattern = "^ob_[a-f0-9]{24}$", description = "The obligation of the customer balance, as `data.id` of `obligation.amount_applied`.", requiredMode = Schema.RequiredMode.REQUIRED) String obligationId,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt) {

    static CustomerView of(Customer c) {
        return new CustomerView(c.id(), c.externalReference(), c.name(), c.email(), c.phone(), c.currency(),
                c.ledger().balance(), c.paymentRules(), c.metadata(), c.obligationId(),
                Timestamps.format(c.createdAt()), Timestamps.format(c.updatedAt()));
    }
}
