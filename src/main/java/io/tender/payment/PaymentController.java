package io.tender.payment;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.Problem;
import io.tender.auth.Caller;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(value = "/collect/payments", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Payments", description = "Payments received for customer balances, account balances and bills.")
class PaymentController {

    private final Payments payments;

    PaymentController(Payments payments) {
        this.payments = payments;
    }

    @GetMapping("/{id}")
    @Operation(summary = "Retrieve a payment")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentView.class)))
    @ApiResponse(responseCode = "404", description = "`payment_not_found`: no such payment for this key", content = @Content(
            mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
    PaymentView get(Caller caller, @PathVariable String id) {
        return PaymentView.of(payments.get(caller, id));
    }
}
