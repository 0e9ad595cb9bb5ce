package io.tender.refund;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;

import java.util.Map;

/** A refund as the API and its events show it (decisions §10). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "Refund")
public record RefundView(
        @Schema(pattern = "^rfd_[a-f0-9]{24}$", example = "rfd_0193f1c2a4b5c6d7e8f9a0b1", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(pattern = "^pay_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String paymentId,
        @Schema(description = "Minor units given back.", minimum = "1", maximum = "99999999", requiredMode = Schema.RequiredMode.REQUIRED) long amount,
        @Schema(minLength = 3, maxLength = 3, example = "ZAR", requiredMode = Schema.RequiredMode.REQUIRED) String currency,
        @Schema(allowableValues = {"pending", "succeeded", "failed"}, requiredMode = Schema.RequiredMode.REQUIRED,
                description = "`pending` once the processor has accepted the refund (or while the recovery job asks it "
                        + "about a call whose outcome was unknown); then `succeeded` or `failed`.") String status,
        @Schema(allowableValues = {"requested_by_customer", "duplicate", "fraudulent", "other"}) String reason,
        @Schema(allowableValues = {"expired_or_closed_account", "declined", "unknown"},
                description = "Why a `failed` refund failed.") String failureReason,
        Map<String, String> metadata,
        @Schema(format = "date-time", example = "2026-05-20T08:25:01.014Z", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", example = "2026-05-20T08:25:01.014Z", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt) {

    static RefundView of(Refund r) {
        return new RefundView(r.id(), r.paymentId(), r.amount(), r.currency(), r.status().wire(),
                r.terms().reason() == null ? null : r.terms().reason().wire(), r.failureReason(), r.terms().metadata(),
                Timestamps.format(r.terms().createdAt()), Timestamps.format(r.updatedAt()));
    }
}
