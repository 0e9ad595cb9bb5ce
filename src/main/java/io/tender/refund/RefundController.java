package io.tender.refund;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.ApiException;
import io.tender.api.CursorList;
import io.tender.api.Ids;
import io.tender.api.IfMatch;
import io.tender.api.JsonInput;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.api.ProblemResponse;
import io.tender.auth.Caller;
import io.tender.idempotency.IdempotentRequests;
import io.tender.payment.Payments;
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

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Refunds of captured money (decisions §10): create one on a payment, retrieve and list them. */
@RestController
@RequestMapping(value = "/collect", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Refunds", description = "Captured money given back, in part or in full, exactly once (decisions §10).")
record RefundController(PaymentRefunds service, Refunds refunds, IdempotentRequests idempotent) {

    private static final Pattern ID = Ids.pattern(Refund.PREFIX);
    private static final Pattern PAYMENT = Ids.pattern(Payments.PREFIX);
    private static final Set<String> STATUSES = Arrays.stream(Refund.Status.values()).filter(s -> s != Refund.Status.DRAFT)
            .map(Refund.Status::wire).collect(Collectors.toSet());

    @PostMapping("/payments/{id}/refunds")
    @Operation(summary = "Refund a payment",
            description = "Gives back `amount` of the payment's captured money (default: all that is left to refund). "
                    + "The refunds of a payment that are not `failed` never add up to more than its `paid_amount`. "
                    + "Answers 201 with the refund whatever its status: a declined refund is `failed`. Sends "
                    + "`refund.created`, then `refund.succeeded` or `refund.failed`. A refund of a payment applied to a "
                    + "bill, account or customer reverses that much of the application when it succeeds "
                    + "(`obligation.amount_reversed`).",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = RefundRequest.class))),
            parameters = {
                    @Parameter(name = "If-Match", in = ParameterIn.HEADER, schema = @Schema(type = "string"),
                            description = "The payment's `version`, e.g. `2`; a different one is 409 conflict")})
    @ApiResponse(responseCode = "201", content = @Content(schema = @Schema(implementation = RefundView.class)))
    @ProblemResponse(status = 404, description = "`payment_not_found`")
    @ProblemResponse(status = 409, description = "`invalid_state_transition` (\"refund amount exceeds the refundable "
            + "amount\", \"nothing captured to refund; void the authorization instead\", a payment that is not "
            + "`succeeded`) or a stale If-Match")
    ResponseEntity<byte[]> create(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode body,
                                  HttpServletRequest request) {
        var keyed = idempotent.keyed(request, body);
        JsonInput in = JsonInput.body(body).allow(Set.of("amount", "reason", "metadata"));
        Long amount = in.integer("amount", false, 1, Payments.MAX_AMOUNT);
        String reasonWire = in.string("reason", false);
        RefundReason reason = reasonWire == null ? null : RefundReason.fromWire(reasonWire).orElse(null);
        in.check(reasonWire == null || reason != null, "reason", "must be one of " + String.join(", ", RefundReason.WIRE));
        Map<String, String> metadata = in.metadata("metadata");
        in.throwIfInvalid();
        return service.refund(caller, id, keyed, IfMatch.version(request, "payment"),
                new PaymentRefunds.NewRefund(amount, reason, metadata)).toEntity();
    }

    @GetMapping("/refunds/{id}")
    @Operation(summary = "Retrieve a refund")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = RefundView.class)))
    @ProblemResponse(status = 404, description = "`resource_not_found`: no such refund for this key")
    RefundView get(Caller caller, @PathVariable String id) {
        return service.get(caller, id);
    }

    @GetMapping("/refunds")
    @CursorList(idPrefix = "rfd_")
    @Operation(summary = "List refunds", description = "Newest first, with cursor pagination.", parameters = {
            @Parameter(name = "payment", in = ParameterIn.QUERY, schema = @Schema(type = "string", pattern = "^pay_[a-f0-9]{24}$")),
            @Parameter(name = "status", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"pending", "succeeded", "failed"}))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = RefundList.class)))
    ResponseEntity<ListPage<RefundView>> list(Caller caller, HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), ID, Set.of("payment", "status"));
        String status = query.oneOf("status", STATUSES);
        String payment = query.single("payment");
        if (payment != null && !PAYMENT.matcher(payment).matches()) {
            throw ApiException.badRequest("payment", "must be a payment id (pay_…)");
        }
        query.throwIfInvalid();
        return ListPage.of(refunds.list(caller, query, payment, status), query.limit(), Refund::id, RefundView::of)
                .toResponse();
    }

    @Schema(name = "RefundPaymentRequest")
    record RefundRequest(@Schema(minimum = "1", maximum = "99999999",
            description = "Minor units; omitted: all that is left to refund") Long amount,
                         @Schema(allowableValues = {"requested_by_customer", "duplicate", "fraudulent", "other"}) String reason,
                         @Schema(description = "At most 20 keys.") Map<String, String> metadata) {
    }

    @Schema(name = "RefundList")
    record RefundList(java.util.List<RefundView> data, boolean hasMore, String nextCursor) {
    }
}
