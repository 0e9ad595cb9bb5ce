package io.tender.paymentrequest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Timestamps;
import io.tender.payment.PaymentError;
import io.tender.payment.PaymentView;

import java.util.List;
import java.util.Map;

/** A payment request as the API and its events show it (decisions §7). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "PaymentRequest")
record PaymentRequestView(
        @Schema(pattern = "^pr_[a-f0-9]{24}$", requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(allowableValues = {"link", "push"}, requiredMode = Schema.RequiredMode.REQUIRED) String type,
        @Schema(allowableValues = {"active", "paid", "expired", "cancelled", "failed"}, requiredMode = Schema.RequiredMode.REQUIRED,
                description = "`failed`: a push the customer's bank declined (or that could not be sent).") String status,
        @Schema(minimum = "1", maximum = "99999999", description = "Minor units.", requiredMode = Schema.RequiredMode.REQUIRED) long amount,
        @Schema(minLength = 3, maxLength = 3, example = "ZAR", requiredMode = Schema.RequiredMode.REQUIRED) String currency,
        @Schema(maxLength = 500) String description,
        @Schema(maxLength = 255, pattern = "^[a-zA-Z0-9_-]+$") String externalReference,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String expiresAt,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) Link link,
        @Schema(pattern = "^pay_[a-f0-9]{24}$", description = "The payment, once paid.") String paymentId,
        @Schema(description = "Minor units the payment's succeeded refunds gave back; 0 before any.", minimum = "0",
                requiredMode = Schema.RequiredMode.REQUIRED) long refundedAmount,
        @Schema(pattern = "^ps_[a-f0-9]{24}$", description = "The payment session behind the link.", requiredMode = Schema.RequiredMode.REQUIRED) String paymentSessionId,
        @Schema(description = "Whom the request asks: billing's customer (`id`) with the name, email and phone it had "
                + "when the request was made, or the details given inline.") Customer customer,
        @Schema(description = "The bill the payment is applied to, as given (id or external_reference).") String bill,
        @Schema(description = "The account the payment is applied to, as given (id or external_reference).") String account,
        @Schema(pattern = "^ob_[a-f0-9]{24}$", description = "The bill's or account's obligation.") String obligationId,
        @ArraySchema(schema = @Schema(allowableValues = {"card", "pay_by_bank", "capitec_pay", "mobile_money"}),
                arraySchema = @Schema(description = "The methods the checkout offers; absent: all of them.")) List<String> visiblePaymentMethods,
        Push push,
        @JsonProperty("notify") @Schema(requiredMode = Schema.RequiredMode.REQUIRED) Notify notifyChannels,
        @Schema(description = "Why a push failed.") PaymentError lastPaymentError,
        @Schema(allowableValues = {"test", "live"}, requiredMode = Schema.RequiredMode.REQUIRED) String mode,
        Map<String, String> metadata,
        @Schema(description = "Goes up with every change; send it as `If-Match` to PATCH or DELETE.", requiredMode = Schema.RequiredMode.REQUIRED) int version,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String createdAt,
        @Schema(format = "date-time", requiredMode = Schema.RequiredMode.REQUIRED) String updatedAt,
        @Schema(description = "Only in the data of `payment_request.paid`: the payment that paid it.") PaymentView payment) {

    /** The hosted checkout for the request: unguessable, and the only way to pay it. */
    @Schema(name = "PaymentRequestLink")
    record Link(@Schema(pattern = "^ckt_[a-f0-9]{32}$", requiredMode = Schema.RequiredMode.REQUIRED) String checkoutSessionId,
                @Schema(format = "uri", requiredMode = Schema.RequiredMode.REQUIRED) String url) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "PaymentRequestCustomer")
    record Customer(@Schema(pattern = "^bcus_[a-f0-9]{24}$") String id, @Schema(maxLength = 200) String name,
                    String email, @Schema(description = "E.164", example = "+27821234567") String phone) {
    }

    @Schema(name = "PaymentRequestPush")
    record Push(@Schema(allowableValues = "capitec", requiredMode = Schema.RequiredMode.REQUIRED) String provider,
                @Schema(requiredMode = Schema.RequiredMode.REQUIRED) Capitec capitec) {
    }

    @Schema(name = "PaymentRequestCapitec")
    record Capitec(@Schema(description = "E.164, South African", example = "+27821234567", requiredMode = Schema.RequiredMode.REQUIRED) String phoneNumber) {
    }

    @Schema(name = "PaymentRequestNotify")
    record Notify(@Schema(description = "Email the link to the customer.", requiredMode = Schema.RequiredMode.REQUIRED) boolean email,
                  @Schema(description = "Text the link to the customer.", requiredMode = Schema.RequiredMode.REQUIRED) boolean sms) {
    }

    /** The request as GET shows it; {@code url} is its checkout's. */
    static PaymentRequestView of(PaymentRequest r, String url) {
        return of(r, url, null);
    }

    /** The request with the payment that paid it, for {@code payment_request.paid}. */
    static PaymentRequestView of(PaymentRequest r, String url, PaymentView payment) {
        var c = r.customer();
        var t = r.target();
        return new PaymentRequestView(r.id(), r.type().wire(), r.status().wire(), r.amount(), r.currency(),
                r.description(), r.externalReference(), Timestamps.format(r.expiresAt()),
                new Link(r.checkoutSessionId(), url), r.paymentId(), r.refundedAmount(), r.paymentSessionId(),
                c == null ? null : new Customer(c.id(), c.name(), c.email(), c.phone()),
                t == null ? null : t.bill(), t == null ? null : t.account(), t == null ? null : t.obligationId(),
                r.visiblePaymentMethods(), r.pushPhoneNumber() == null ? null
                : new Push("capitec", new Capitec(r.pushPhoneNumber())),
                new Notify(r.notifyChannels().email(), r.notifyChannels().sms()), r.lastPaymentError(), r.mode().wire(),
                r.metadata(), r.version(), Timestamps.format(r.createdAt()), Timestamps.format(r.updatedAt()),
                payment);
    }
}
