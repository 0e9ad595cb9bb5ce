package io.tender.paymentpage;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;

import java.time.Instant;
import java.util.Map;

/**
 * One visit to a page that opened a payment session: the amount and what the payer entered, copied onto every
 * transaction of that session. {@code formNonce} is the nonce of the form it was posted from: the same form posted
 * twice is one visit.
 */
record Visit(String id, String paymentPageId, String paymentSessionId, String formNonce, long amount, String currency,
             Details details, Instant createdAt) {

    /**
     * What the payer entered, as the page asked: {@code customer} and {@code deliveryAddress} are null when the page
     * did not ask for them; {@code metadata} is the page's when the payer visited it.
     */
    record Details(PageTransactionView.Payer customer, Address deliveryAddress, Map<String, String> customFields,
                   Map<String, String> metadata) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "PaymentPageDeliveryAddress")
    record Address(@Schema(maxLength = 200) String line1, @Schema(maxLength = 200) String line2,
                   @Schema(maxLength = 100) String city, @Schema(maxLength = 100) String state,
                   @Schema(maxLength = 100) String country,
                   @Schema(maxLength = 20, description = "The postal code.") String pin) {
    }
}
