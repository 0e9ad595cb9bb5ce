package io.tender.payment;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.ProblemResponse;
import io.tender.auth.Caller;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(value = "/collect/payment_methods", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Payment methods", description = "Cards saved by a succeeded verification session (amount 0), or by a "
        + "payment of a session with `checkout_options.save_payment_method: always`.")
class PaymentMethodController {

    private final SavedPaymentMethods methods;

    PaymentMethodController(SavedPaymentMethods methods) {
        this.methods = methods;
    }

    @GetMapping("/{id}")
    @Operation(summary = "Retrieve a saved payment method")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentMethodView.class)))
    @ProblemResponse(status = 404, description = "`resource_not_found`: no such payment method for this key")
    PaymentMethodView get(Caller caller, @PathVariable String id) {
        return PaymentMethodView.of(methods.get(caller, id));
    }
}
