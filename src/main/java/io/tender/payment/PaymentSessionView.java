package io.tender.payment;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;

import java.util.Map;

/** A payment session as the API and its events show it (decisions §6). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "PaymentSession")
public record PaymentSessionView(
        @Schema(pattern = "^ps_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(allowableValues = {"one_time", "first_in_series", "next_in_series"}, requiredMode = Schema.RequiredMode.REQUIRED) String type,
        @Schema(minimum = "0", maximum = "99999999", description = "Minor units; 0 for a card verification.", requiredMode = Schema.RequiredMode.REQUIRED) long amount,
        @Schema(minLength = 3, maxLength = 3, example = "ZAR", requiredMode = Schema.RequiredMode.REQUIRED) String currency,
        @Schema(minLength = 2, maxLength = 2, example = "ZA", requiredMode = Schema.RequiredMode.REQUIRED) String country,
        @Schema(allowableValues = {"active", "completed", "expired", "cancelled"}, requiredMode = Schema.RequiredMode.REQUIRED) String status,
        @Schema(allowableValues = {"not_started", "pending", "paid", "unpaid", "reserved", "payment_method_verified"}, requiredMode = Schema.RequiredMode.REQUIRED) String paymentOutcome,
        @Schema(allowableValues = {"paid", "unpaid", "pending"}, deprecated = true, description = "Deprecated: read `payment_outcome`.", requiredMode = Schema.RequiredMode.REQUIRED) String paymentStatus,
        @Schema(pattern = "^bcus_[a-f0-9]{24}$") String customerId,
        @Schema(pattern = "^pm_[a-f0-9]{24}$", description = "The card a succeeded verification (or a payment with `save_payment_method: always`) saved.") String paymentMethodId,
        @Schema(pattern = "^ckt_[a-f0-9]{32}$", description = "Absent for `next_in_series` (no checkout).") String checkoutSessionId,
        @Schema(pattern = "^pay_[a-f0-9]{24}$", description = "The latest attempt.") String paymentId,
        @Schema(pattern = "^ob_[a-f0-9]{24}$", description = "The bill's or account's obligation the payment is applied to.") String obligationId,
        @Schema(format = "uri", description = "The hosted checkout, at the unguessable checkout_session_id. Absent for `next_in_series`: the charge is made at once, without the customer.") String sessionUrl,
        @Schema(format = "uri") String returnUrl,
        PaymentError lastPaymentError,
        @Schema(pattern = "^mdt_[a-f0-9]{24}$", description = "`first_in_series`: the mandate its success created; `next_in_series`: the mandate it charged.") String mandateId,
        @Schema(pattern = "^sub_[a-f0-9]{24}$", description = "`first_in_series` with `subscription_options`: the subscription its success created.") String subscriptionId,
        @Schema(allowableValues = {"test", "live"}, requiredMode = Schema.RequiredMode.REQUIRED) String mode,
        @Schema(maxLength = 255, pattern = "^[a-zA-Z0-9_-]+$") String externalReference,
        Map<String, String> metadata,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) Object options,
        @Schema(minimum = "0", maximum = "5", requiredMode = Schema.RequiredMode.REQUIRED) int attempts,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) int version,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String expiresAt,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt) {

    static PaymentSessionView of(PaymentSession s, String publicBase) {
        boolean checkout = !s.nextInSeries();
        return new PaymentSessionView(s.id(), s.type(), s.amount(), s.currency(), s.country(), s.status().wire(),
                s.paymentOutcome(), s.paymentStatus(), s.customerId(), s.paymentMethodId(),
                checkout ? s.checkoutSessionId() : null, s.paymentId(), s.obligationId(),
                checkout ? publicBase + "/checkout/" + s.checkoutSessionId() : null, s.returnUrl(),
                s.lastPaymentError(), s.mandateId(), s.subscriptionId(), s.mode().wire(), s.externalReference(), s.metadata(), s.options(), s.attempts(),
                s.version(), Timestamps.format(s.expiresAt()), Timestamps.format(s.createdAt()),
                Timestamps.format(s.updatedAt()));
    }
}
