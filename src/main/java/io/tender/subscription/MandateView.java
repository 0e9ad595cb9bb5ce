package io.tender.subscription;

import io.tender.payment.Acceptance;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;

import java.time.LocalDate;
import java.util.Map;

/** A mandate as the API and its events show it (decisions §8). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "Mandate")
public record MandateView(
        @Schema(pattern = "^mdt_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(allowableValues = {"active", "cancelled", "completed"}, requiredMode = Schema.RequiredMode.REQUIRED) String status,
        @Schema(allowableValues = {"scheduled", "on_demand", "installment"}, requiredMode = Schema.RequiredMode.REQUIRED) String type,
        @Schema(pattern = "^bcus_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String customerId,
        @Schema(pattern = "^pm_[a-f0-9]{24}$", description = "The saved card it charges.", requiredMode = Schema.RequiredMode.REQUIRED) String paymentMethodId,
        @Schema(description = "As on a payment: `{\"type\": \"card\", \"card\": {type, scheme, bin, last4, exp_month, exp_year}}`.", requiredMode = Schema.RequiredMode.REQUIRED) Map<String, Object> paymentMethodDetails,
        @Schema(minLength = 3, maxLength = 3, example = "ZAR", description = "Every charge is in it: the first payment's.", requiredMode = Schema.RequiredMode.REQUIRED) String currency,
        @Schema(description = "`mandate_options` as the mandate holds them, defaults included. A subscription's mandate shows its `interval`, `interval_count`, `anchor_date` and `first_index` instead of an execution constraint.", requiredMode = Schema.RequiredMode.REQUIRED) Map<String, Object> options,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) Acceptance acceptance,
        @Schema(pattern = "^pay_[a-f0-9]{24}$", description = "The customer-present payment that created it: its first charge.", requiredMode = Schema.RequiredMode.REQUIRED) String firstPaymentId,
        @Schema(pattern = "^sub_[a-f0-9]{24}$", description = "The subscription whose mandate it is.") String subscriptionId,
        @Schema(format = "date", description = "`scheduled` and `installment`: the next date it may be charged on, in its `time_zone`; absent once it has ended.") String nextExecutionDate,
        @Schema(description = "Succeeded charges, the first payment included.", requiredMode = Schema.RequiredMode.REQUIRED) int paymentsCount,
        @Schema(description = "With a period limit: the current period (both dates inclusive) and what its charges that did not fail took.") PeriodUsage periodUsage,
        @Schema(description = "`installment`: the scheduled charges still to come.") Integer installmentsRemaining,
        @Schema(allowableValues = {"test", "live"}, requiredMode = Schema.RequiredMode.REQUIRED) String mode,
        Map<String, String> metadata,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt,
        @Schema(format = "date-time") String cancelledAt) {

    /** The customer's agreement, recorded when they paid the first payment on the checkout. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "MandateAcceptance")
    public record Acceptance(@Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String acceptedAt,
                             @Schema(description = "The client address the checkout saw.") String ipAddress,
                             String userAgent) {
    }

    @Schema(name = "MandatePeriodUsage")
    public record PeriodUsage(@Schema(format = "date", requiredMode = Schema.RequiredMode.REQUIRED) String periodStart,
                              @Schema(format = "date", description = "Inclusive.", requiredMode = Schema.RequiredMode.REQUIRED) String periodEnd,
                              @Schema(requiredMode = Schema.RequiredMode.REQUIRED) long amount,
                              @Schema(requiredMode = Schema.RequiredMode.REQUIRED) int count) {
    }

    /**
     * The mandate on {@code today} (in its zone): its next execution date from then, and {@code usage} of the period
     * holding it (null without a period limit).
     */
    static MandateView of(Mandate m, LocalDate today, Mandate.Usage usage) {
        Mandate.Terms t = m.fixed();
        var period = m.schedule().period(today);
        return new MandateView(m.id(), m.status().wire(), t.terms().type().name().toLowerCase(), t.customerId(),
                t.paymentMethodId(), t.paymentMethodDetails(), t.currency(), t.terms().wire(),
                new Acceptance(Timestamps.format(t.acceptance().acceptedAt()), t.acceptance().ipAddress(),
                        t.acceptance().userAgent()),
                t.firstPaymentId(), t.subscriptionId(),
                m.nextExecutionDate(today).map(LocalDate::toString).orElse(null), m.paymentsCount(),
                period.isEmpty() || usage == null ? null : new PeriodUsage(period.get().start().toString(),
                        period.get().end().minusDays(1).toString(), usage.amount(), usage.count()),
                m.installmentsRemaining(), t.mode().wire(), t.metadata(), Timestamps.format(t.createdAt()),
                Timestamps.format(m.updatedAt()), Timestamps.format(m.cancelledAt()));
    }
}
