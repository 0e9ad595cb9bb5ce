package io.tender.redemption;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;
import io.tender.provider.ChangeVoucher;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

/** A redemption as the API shows it (spec "Redemption"), field for field and in the spec's order. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "Redemption")
public record RedemptionView(
        @Schema(pattern = "^rdm_[a-f0-9]{24}$", example = "rdm_0193f1c2a4b5c6d7e8f9a0b1", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(allowableValues = {"draft", "reserved", "confirmed", "failed"}, requiredMode = Schema.RequiredMode.REQUIRED) String status,
        @Schema(minimum = "1", description = "Starts at 1 and increments on every state change; for optimistic concurrency.", requiredMode = Schema.RequiredMode.REQUIRED) int version,
        @Schema(allowableValues = {"vouchers.one_voucher", "vouchers.ott", "vouchers.provider_c"}) String type,
        @Schema(description = "Latest provider-side reference bag; its shape depends on the most recent operation.") Map<String, Object> providerReference,
        @Schema(description = "Requested amount in cents, or the voucher's full value resolved by the provider.", requiredMode = Schema.RequiredMode.REQUIRED) long amount,
        @Schema(description = "Amount reserved at the provider, in cents.") Long reservedAmount,
        @Schema(description = "Amount captured by the provider, in cents.") Long redeemedAmount,
        @Schema(description = "Amount reversed back to the provider, in cents.", requiredMode = Schema.RequiredMode.REQUIRED) long reversedAmount,
        @Schema(minLength = 3, maxLength = 3, example = "ZAR", requiredMode = Schema.RequiredMode.REQUIRED) String currency,
        @Schema(description = "The voucher credentials, secrets masked to their last four characters.") Map<String, String> source,
        // Documented as a map: springdoc cannot introspect Jackson 3's ObjectNode and would drop the whole schema.
        @Schema(implementation = Map.class, description = "Provider-specific configuration forwarded on each operation.") ObjectNode redemptionOptions,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<OperationView> operations,
        @Schema(description = "Replacement voucher for the remainder of a partial redeem; its PIN is shown in full only by the call that made it (and its idempotent replay), masked to the last 4 characters everywhere else.") ChangeVoucher changeVoucher,
        OperationError lastError,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<String> relatedIds,
        Map<String, String> metadata,
        String externalReference,
        @Schema(format = "date-time", example = "2026-05-20T08:25:01.014Z", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", example = "2026-05-20T08:25:01.014Z", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "Operation")
    public record OperationView(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String id,
            @Schema(allowableValues = {"reserve", "confirm", "reverse"}, requiredMode = Schema.RequiredMode.REQUIRED) String type,
            @Schema(allowableValues = {"succeeded", "failed"}, requiredMode = Schema.RequiredMode.REQUIRED) String status,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED) long amount,
            Map<String, Object> providerReference,
            OperationError error,
            @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt) {
    }

    /**
     * The API view. {@code masked} stars {@code change_voucher.pin} but its last 4 characters: for events, reads
     * and lists; only the answer of the call that made the change voucher (and its replay) shows it in full.
     */
    static RedemptionView of(Redemption r, boolean masked) {
        ChangeVoucher change = r.changeVoucher() == null ? null : masked ? r.changeVoucher().masked() : r.changeVoucher();
        return new RedemptionView(r.id(), r.status().wire(), r.version(), r.type().wire(), r.providerReference(),
                r.amount(), r.reservedAmount(), r.redeemedAmount(), r.reversedAmount(), r.currency(),
                r.source().masked(), r.redemptionOptions(),
                r.operations().stream()
                        .filter(o -> !o.status().open())
                        .map(o -> new OperationView(o.id(), o.type().wire(), o.status().wire(), o.amount(),
                                o.providerReference(), o.error(), Timestamps.format(o.createdAt())))
                        .toList(),
                change, r.lastError(), r.relatedIds(), r.metadata(), r.externalReference(),
                Timestamps.format(r.createdAt()), Timestamps.format(r.updatedAt()));
    }
}
