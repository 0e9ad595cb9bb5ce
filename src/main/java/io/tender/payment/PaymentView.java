package io.tender.payment;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;

import java.util.Map;

/**
 * A payment as the API, its events and billing's test helper show it (decisions §6). Of a card only the scheme,
 * type, bin, last4 and expiry are ever shown; phone numbers are masked to their last 4 digits.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "Payment")
public record PaymentView(
        @Schema(pattern = "^pay_[a-f0-9]{24}$", example = "pay_0193f1c2a4b5c6d7e8f9a0b1", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(allowableValues = {"draft", "pending", "succeeded", "failed", "cancelled", "expired"}, requiredMode = Schema.RequiredMode.REQUIRED,
                description = "The legacy `initiating`, `pending_action` and `processing` are never emitted; read them as `pending`.") String status,
        @Schema(description = "Minor units; 0 for a verification.", minimum = "0", maximum = "99999999", requiredMode = Schema.RequiredMode.REQUIRED) long amount,
        @Schema(minLength = 3, maxLength = 3, example = "ZAR", requiredMode = Schema.RequiredMode.REQUIRED) String currency,
        @Schema(minLength = 2, maxLength = 2, example = "ZA", description = "ISO 3166-1 alpha-2.", requiredMode = Schema.RequiredMode.REQUIRED) String country,
        @Schema(allowableValues = {"test", "live"}, requiredMode = Schema.RequiredMode.REQUIRED) String mode,
        @Schema(allowableValues = {"payment", "payment_method_verification"}, requiredMode = Schema.RequiredMode.REQUIRED) String intent,
        @Schema(allowableValues = {"automatic", "manual"}, requiredMode = Schema.RequiredMode.REQUIRED) String captureMethod,
        @Schema(description = "Minor units authorised; never changes after the authorization.", requiredMode = Schema.RequiredMode.REQUIRED) long authorizedAmount,
        @Schema(format = "date-time", description = "Manual capture: when the remaining authorization is released.") String authorizationExpiresAt,
        @Schema(description = "Minor units captured (received).", requiredMode = Schema.RequiredMode.REQUIRED) long paidAmount,
        @Schema(description = "Minor units of the authorization released.", requiredMode = Schema.RequiredMode.REQUIRED) long voidedAmount,
        @Schema(description = "Minor units given back by succeeded refunds; 0 before any. Refunds change neither "
                + "`status` nor `paid_amount`.", minimum = "0", requiredMode = Schema.RequiredMode.REQUIRED) long refundedAmount,
        @Schema(description = "`{\"type\": \"card\", \"card\": {type, scheme, bin, last4, exp_month, exp_year}}`, "
                + "`{\"type\": \"pay_by_bank\", \"pay_by_bank\": {bank}}`, or `capitec_pay` / `mobile_money` with "
                + "`{phone_number}` masked to its last 4 digits.") Map<String, Object> paymentMethodDetails,
        @Schema(maxLength = 255, pattern = "^[a-zA-Z0-9_-]+$") String externalReference,
        PaymentError lastPaymentError,
        Map<String, String> metadata,
        @Schema(pattern = "^ps_[a-f0-9]{24}$") String paymentSessionId,
        @Schema(pattern = "^pm_[a-f0-9]{24}$", description = "The payment method this payment saved (a verification, `save_payment_method: always`, a series' first payment), or the saved one it charged (a charge of a mandate).") String paymentMethodId,
        @Schema(pattern = "^bcus_[a-f0-9]{24}$") String customerId,
        @Schema(pattern = "^ob_[a-f0-9]{24}$", description = "The obligation (customer balance, account balance or bill) the payment is for.") String obligationId,
        @Schema(pattern = "^mdt_[a-f0-9]{24}$", description = "A charge of this mandate: the series' first payment, a `next_in_series` charge or a subscription's.") String mandateId,
        @Schema(pattern = "^sub_[a-f0-9]{24}$", description = "The subscription whose period this payment charged.") String subscriptionId,
        @Schema(description = "A declined subscription charge: whether Tender tries the period again.") Boolean willRetry,
        @Schema(format = "date-time", description = "When the declined period is tried again, if it is.") String nextRetryAt,
        @Schema(description = "Goes up with every change; send it as `If-Match` to capture or void.", requiredMode = Schema.RequiredMode.REQUIRED) int version,
        @Schema(format = "date-time", example = "2026-05-20T08:25:01.014Z", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", example = "2026-05-20T08:25:01.014Z", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt) {

    public static PaymentView of(Payment p) {
        return new PaymentView(p.id(), p.status().wire(), p.amount(), p.currency(), p.country(), p.mode().wire(),
                p.intent().wire(), p.captureMethod().wire(), p.authorizedAmount(),
                p.authorizationExpiresAt() == null ? null : Timestamps.format(p.authorizationExpiresAt()),
                p.paidAmount(), p.voidedAmount(), p.refundedAmount(), p.paymentMethodDetails(), p.externalReference(),
                p.lastPaymentError(), p.metadata(), p.paymentSessionId(), p.paymentMethodId(), p.customerId(), p.obligationId(),
                p.series() == null ? null : p.series().mandateId(),
                p.series() == null ? null : p.series().subscriptionId(),
                p.retry() == null ? null : p.retry().willRetry(),
                p.retry() == null ? null : Timestamps.format(p.retry().nextRetryAt()),
                p.version(), Timestamps.format(p.createdAt()), Timestamps.format(p.updatedAt()));
    }
}
