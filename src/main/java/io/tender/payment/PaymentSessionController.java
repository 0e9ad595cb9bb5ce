package io.tender.payment;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.EmptyRequest;
import io.tender.api.ProblemResponse;
import io.tender.api.JsonInput;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.idempotency.IdempotentRequests;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.Set;

@RestController
@RequestMapping(value = "/collect/payment_sessions", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Payment sessions", description = "A payment asked of a customer, paid at Tender's hosted checkout (`session_url`).")
record PaymentSessionController(PaymentSessionService service, NextInSeriesCharges charges, SeriesTerms terms,
                                IdempotentRequests idempotent) {
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create a payment session",
            description = "Answers 201 with the session and its `session_url`, where the customer pays. With `bill` or "
                    + "`account` the payment rules are checked now and when an attempt starts, `amount` defaults to what "
                    + "is outstanding, and the succeeded payment is applied (`obligation.amount_applied`). "
                    + "`first_in_series` (a `customer`, and `options.mandate_options` or `options.subscription_options`): "
                    + "the checkout states the terms and the customer agrees by paying; the success saves the card and "
                    + "creates the mandate (and subscription). `next_in_series` (`customer_id`, `payment_method_id` or "
                    + "`mandate_id`): the saved card is charged at once, without the customer, and the 201 carries the "
                    + "outcome (no `session_url`); a charge the mandate's rules refuse is 422, with nothing sent to the "
                    + "processor.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = NewPaymentSession.Body.class))))
    @ApiResponse(responseCode = "201", content = @Content(schema = @Schema(implementation = PaymentSessionView.class)))
    @ProblemResponse(status = 404, description = "No such bill, account, customer, saved payment method or mandate")
    @ProblemResponse(status = 422, description = "`operation_not_allowed`: the bill's or account's payment rules "
            + "refuse the amount; or a `next_in_series` charge the mandate refuses, the detail naming the rule (not "
            + "active, amount, currency, not an execution date, outside an on_demand mandate's dates, period limit, "
            + "another customer's payment method)")
    ResponseEntity<byte[]> create(Caller caller, @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        var keyed = idempotent.keyed(request, body);
        NewPaymentSession command = NewPaymentSession.parse(body, caller.mode(), Timestamps.now(), terms);
        if (command.type().equals(PaymentSession.NEXT_IN_SERIES)) {
            return charges.charge(caller, keyed, command).toEntity();
        }
        return service.create(caller, keyed, command).toEntity();
    }

    @GetMapping("/{id}")
    @Operation(summary = "Retrieve a payment session")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentSessionView.class)))
    @ProblemResponse(status = 404, description = "`payment_not_found`")
    PaymentSessionView get(Caller caller, @PathVariable String id) {
        return service.get(caller, id);
    }

    @PostMapping("/{id}/complete")
    @Operation(summary = "Choose the next payment method",
            description = "With `payment_method_selection: merchant`, after an attempt the customer is back at "
                    + "`return_url`; this sets the method of the next attempt and answers the session, whose "
                    + "`session_url` is ready for it. A session not waiting for it: 409 `invalid_state_transition`.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = CompleteRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentSessionView.class)))
    @ProblemResponse(status = 409, description = "`invalid_state_transition`")
    ResponseEntity<byte[]> complete(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode body,
                                    HttpServletRequest request) {
        var keyed = idempotent.keyed(request, body);
        JsonInput in = JsonInput.body(body).allow(Set.of("selected_payment_method", "visible_payment_methods"));
        String selected = in.string("selected_payment_method", false);
        String selectedWire = selected == null ? null
                : PaymentMethodType.fromWire(selected).map(PaymentMethodType::wire).orElse(null);
        in.check(selected == null || selectedWire != null, "selected_payment_method",
                "must be one of " + String.join(", ", PaymentMethodType.WIRE));
        List<String> visible = PaymentMethodType.readList(in, "visible_payment_methods");
        in.throwIfInvalid();
        return service.complete(caller, keyed, id, selectedWire, visible).toEntity();
    }

    @PostMapping("/{id}/cancel")
    @Operation(summary = "Cancel a payment session",
            description = "Ends an `active` session while no attempt is in flight: `status` `cancelled`, "
                    + "`payment_outcome` `unpaid`.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = EmptyRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentSessionView.class)))
    @ProblemResponse(status = 409, description = "`invalid_state_transition`: not active, or an attempt in flight")
    ResponseEntity<byte[]> cancel(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode body,
                                  HttpServletRequest request) {
        return service.cancel(caller, idempotent.keyedWithoutBody(request, body), id).toEntity();
    }

    @Schema(name = "CompletePaymentSessionRequest")
    record CompleteRequest(
            @Schema(allowableValues = {"card", "pay_by_bank", "capitec_pay", "mobile_money"}) String selectedPaymentMethod,
            @ArraySchema(schema = @Schema(allowableValues = {"card", "pay_by_bank", "capitec_pay", "mobile_money"})) List<String> visiblePaymentMethods) {
    }
}
