package io.tender.payment;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;

/** {@code last_payment_error}: why the latest attempt did not succeed ({@code card_declined}, {@code insufficient_funds}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "PaymentError")
public record PaymentError(
        @Schema(example = "card_declined") String errorCode,
        @Schema(example = "insufficient_funds") String declineCode,
        String message,
        @Schema(format = "date-time") String timestamp) {
}
