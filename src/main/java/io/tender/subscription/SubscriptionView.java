package io.tender.subscription;

import io.tender.payment.PaymentView;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * A subscription as the API and its events show it (decisions §8); a test clock's advance adds the payments it made.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "Subscription")
public record SubscriptionView(
        @Schema(pattern = "^sub_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(allowableValues = {"active", "past_due", "unpaid", "cancelled", "completed"}, requiredMode = Schema.RequiredMode.REQUIRED) String status,
        @Schema(pattern = "^mdt_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String mandateId,
        @Schema(pattern = "^bcus_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String customerId,
        @Schema(minLength = 3, maxLength = 3, example = "ZAR", requiredMode = Schema.RequiredMode.REQUIRED) String currency,
        @Schema(description = "`subscription_options` as the subscription holds them, defaults included.", requiredMode = Schema.RequiredMode.REQUIRED) Map<String, Object> options,
        @Schema(description = "The period the latest paid charge paid for: from its date to the next charge's (exclusive; absent once nothing more is scheduled).", requiredMode = Schema.RequiredMode.REQUIRED) CurrentPeriod currentPeriod,
        @Schema(format = "date-time", description = "When the next charge (or retry) is due: the start of its day in the subscription's `time_zone`.") String nextChargeAt,
        @Schema(pattern = "^pay_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String latestPaymentId,
        @Schema(pattern = "^pay_[a-f0-9]{24}$", description = "The customer-present payment that started it.", requiredMode = Schema.RequiredMode.REQUIRED) String firstPaymentId,
        @Schema(format = "date", description = "Test mode: the date its test clock was advanced to.") String testClock,
        @Schema(allowableValues = {"test", "live"}, requiredMode = Schema.RequiredMode.REQUIRED) String mode,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt,
        @Schema(format = "date-time") String cancelledAt,
        @ArraySchema(arraySchema = @Schema(description = "Only in the answer of a test clock's advance: the payments it made, in order."))
        List<PaymentView> payments,
        @Schema(description = "Only in the answer of a test clock's advance that stopped before `to`: where its clock stays, and why.")
        AdvanceStopped advanceStopped) {

    /**
     * Why a test clock's advance left its clock short of {@code to} (decisions §8: a clock never moves past a date
     * whose notice, charge or retry is not finished).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "TestClockStop")
    public record AdvanceStopped(
            @Schema(format = "date", requiredMode = Schema.RequiredMode.REQUIRED, description = "The date the clock stays at: the date of the work not finished.") String at,
            @Schema(allowableValues = {"payment_pending", "period_held"}, requiredMode = Schema.RequiredMode.REQUIRED,
                    description = "`payment_pending`: a charge of that date has no final answer yet (its processor's answer is unknown, and the recovery job asks for it; or another flow's charge is in flight). `period_held`: another flow (the scheduler, a resume) holds a notice or charge of that date. Advance again, with a new Idempotency-Key, once it is finished.") String reason,
            @Schema(pattern = "^pay_[a-f0-9]{24}$", description = "`payment_pending`: the payment waited for.") String paymentId) {

        static AdvanceStopped pending(java.time.LocalDate at, String paymentId) {
            return new AdvanceStopped(at.toString(), "payment_pending", paymentId);
        }

        static AdvanceStopped held(java.time.LocalDate at) {
            return new AdvanceStopped(at.toString(), "period_held", null);
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "SubscriptionPeriod")
    public record CurrentPeriod(@Schema(format = "date", requiredMode = Schema.RequiredMode.REQUIRED) String start,
                                @Schema(format = "date") String end) {
    }

    static SubscriptionView of(Subscription s) {
        return advanced(s, null, null);
    }

    /** The answer of a test clock's advance: the subscription, the payments the advance made, and where it stopped. */
    static SubscriptionView advanced(Subscription s, List<PaymentView> payments, AdvanceStopped stopped) {
        Subscription.Terms t = s.fixed();
        return new SubscriptionView(s.id(), s.status().wire(), t.mandateId(), t.customerId(), t.currency(),
                t.terms().wire(), new CurrentPeriod(text(s.currentPeriodStart()), text(s.currentPeriodEnd())),
                Timestamps.format(s.nextChargeAt()), s.latestPaymentId(), t.firstPaymentId(), text(s.clockDate()),
                t.mode().wire(), Timestamps.format(t.createdAt()), Timestamps.format(s.updatedAt()),
                Timestamps.format(s.cancelledAt()), payments, stopped);
    }

    private static String text(LocalDate date) {
        return date == null ? null : date.toString();
    }
}
