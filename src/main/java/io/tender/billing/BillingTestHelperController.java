package io.tender.billing;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.ProblemResponse;
import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.idempotency.IdempotentRequests;
import io.tender.payment.PaymentView;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

@RestController
@Tag(name = "Test payments", description = "Test mode: a payment of a bill, an account or a customer balance, without a checkout.")
record BillingTestHelperController(ObligationPayments obligationPayments, IdempotentRequests requests) {
    @PostMapping(value = "/billing/test_helpers/payments", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createTestPayment", summary = "Pay a bill, account or customer (test mode)",
            description = "Test keys only. Creates a succeeded payment and applies it to the obligation, exactly as a "
                    + "real payment will be: the payment rules are checked, the balance or amount paid moves and "
                    + "`obligation.amount_applied` is sent, all in one transaction. A refused payment leaves nothing.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = BillingRequests.CreateTestPayment.class))))
    @ApiResponse(responseCode = "201", description = "The payment, applied",
            content = @Content(schema = @Schema(implementation = PaymentView.class)))
    @ProblemResponse(status = 403, description = "`operation_not_allowed`: a live key")
    @ProblemResponse(status = 404, description = "No such bill, account or customer for this key")
    @ProblemResponse(status = 409, description = "`invalid_state_transition`: the bill is voided")
    @ProblemResponse(status = 422, description = "`operation_not_allowed`: the obligation cannot take this payment "
            + "(no payment rules or currency, another currency, or outside its payment rules)")
    ResponseEntity<byte[]> pay(Caller caller, @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        if (caller.mode() != Mode.TEST) {
            throw new ApiException(ProblemCode.OPERATION_NOT_ALLOWED,
                    "Test helpers take test keys only; live payments come from Collect.");
        }
        TestPayment payment = TestPayment.parse(body);
        return requests.execute(caller, request, body,
                () -> new IdempotentRequests.Result(201, obligationPayments.recordTestPayment(caller, payment)));
    }
}
