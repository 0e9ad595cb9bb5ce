package io.tender.paymentpage;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;
import io.tender.payment.PaymentView;

import java.util.Map;

/**
 * One attempt to pay through a page (decisions §7) as {@code GET …/transactions} shows it; the event
 * {@code payment_page.payment_received} adds the {@code payment}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "PaymentPageTransaction")
record PageTransactionView(
        @Schema(pattern = "^pt_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(pattern = "^pp_([a-f0-9]{32}|[a-f0-9]{24})$", requiredMode = Schema.RequiredMode.REQUIRED) String paymentPageId,
        @Schema(allowableValues = {"succeeded", "failed"}, requiredMode = Schema.RequiredMode.REQUIRED,
                description = "`failed`: declined, or the session expired while the attempt waited.") String status,
        @Schema(minimum = "1", maximum = "99999999", requiredMode = Schema.RequiredMode.REQUIRED,
                description = "Minor units the payer chose or the page fixed.") long amount,
        @Schema(minLength = 3, maxLength = 3, example = "ZAR", requiredMode = Schema.RequiredMode.REQUIRED) String currency,
        @Schema(description = "The payer's details; omitted when the page did not ask for them.") Payer customer,
        @Schema(description = "The answers to the page's custom fields, by key.", requiredMode = Schema.RequiredMode.REQUIRED)
        Map<String, String> customFields,
        @Schema(description = "Omitted when the page did not ask for it.") Visit.Address deliveryAddress,
        @Schema(pattern = "^pay_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String paymentId,
        @Schema(description = "Minor units the payment's succeeded refunds gave back; 0 before any.", minimum = "0",
                requiredMode = Schema.RequiredMode.REQUIRED) long refundedAmount,
        @Schema(pattern = "^ps_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String paymentSessionId,
        @Schema(pattern = "^ckt_[a-f0-9]{32}$", requiredMode = Schema.RequiredMode.REQUIRED) String checkoutSessionId,
        @Schema(description = "The page's metadata when the payer visited it.") Map<String, String> metadata,
        @Schema(allowableValues = {"test", "live"}, requiredMode = Schema.RequiredMode.REQUIRED) String mode,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt,
        @Schema(description = "In the payment_page.payment_received event only: the payment as GET /collect/payments/{id} shows it.")
        PaymentView payment) {

    @Schema(name = "PaymentPagePayer")
    record Payer(@Schema(maxLength = 200) String name, @Schema(maxLength = 254) String email,
                 @Schema(maxLength = 30) String phone) {
    }

    static PageTransactionView of(PageTransaction t) {
        Visit.Details details = t.details();
        return new PageTransactionView(t.id(), t.paymentPageId(), t.status(), t.amount(), t.currency(),
                details.customer(), details.customFields(), details.deliveryAddress(), t.paymentId(),
                t.refundedAmount(), t.paymentSessionId(), t.checkoutSessionId(), details.metadata(), t.mode().wire(), Timestamps.format(t.createdAt()),
                Timestamps.format(t.updatedAt()), null);
    }

    PageTransactionView withPayment(PaymentView payment) {
        return new PageTransactionView(id, paymentPageId, status, amount, currency, customer, customFields,
                deliveryAddress, paymentId, refundedAmount, paymentSessionId, checkoutSessionId, metadata, mode, createdAt, updatedAt,
                payment);
    }
}
