package io.tender.payment;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.CursorList;
import io.tender.api.ProblemResponse;
import io.tender.api.ApiException;
import io.tender.api.Ids;
import io.tender.api.IfMatch;
import io.tender.api.JsonInput;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
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

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

@RestController
@RequestMapping(value = "/collect/payments", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Payments", description = "Payments: attempts at payment sessions and billing's test-helper payments; "
        + "captures and voids of manual authorizations.")
record PaymentController(Payments payments, CapturesAndVoids service, IdempotentRequests idempotent) {

    private static final Pattern ID = Ids.pattern(Payments.PREFIX);
    private static final Pattern SESSION = Ids.pattern("ps_");
    private static final Set<String> STATUSES = Arrays.stream(PaymentStatus.values()).map(PaymentStatus::wire)
            .collect(Collectors.toSet());

    @GetMapping("/{id}")
    @Operation(summary = "Retrieve a payment")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentView.class)))
    @ProblemResponse(status = 404, description = "`payment_not_found`: no such payment for this key")
    ResponseEntity<PaymentView> get(Caller caller, @PathVariable String id) {
        return IfMatch.tagged(PaymentView.of(payments.get(caller, id)), PaymentView::version);
    }

    @GetMapping
    @CursorList(idPrefix = "pay_")
    @Operation(summary = "List payments", description = "Newest first, with cursor pagination.", parameters = {
            @Parameter(name = "status", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"draft", "pending", "succeeded", "failed", "cancelled", "expired"})),
            @Parameter(name = "payment_session", in = ParameterIn.QUERY, schema = @Schema(type = "string", pattern = "^ps_[a-f0-9]{24}$")),
            @Parameter(name = "external_reference", in = ParameterIn.QUERY, schema = @Schema(type = "string"))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentList.class)))
    ResponseEntity<ListPage<PaymentView>> list(Caller caller, HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), ID, Set.of("status", "payment_session", "external_reference"));
        String status = query.oneOf("status", STATUSES);
        String session = query.single("payment_session");
        if (session != null && !SESSION.matcher(session).matches()) {
            throw ApiException.badRequest("payment_session", "must be a payment session id (ps_…)");
        }
        query.throwIfInvalid();
        return ListPage.of(payments.list(caller, query, status, session, query.single("external_reference")),
                query.limit(), Payment::id, PaymentView::of).toResponse();
    }

    @PostMapping("/{id}/captures")
    @Operation(summary = "Capture an authorised payment",
            description = "On a `succeeded` manual-capture payment with an unexpired authorization: captures `amount` "
                    + "(default: all that remains). Repeatable while `paid_amount + voided_amount + amount <= "
                    + "authorized_amount`. Sends `payment.captured`. `metadata` merges into the payment's.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = CaptureRequest.class))),
            parameters = {
                    @Parameter(name = "If-Match", in = ParameterIn.HEADER, schema = @Schema(type = "string"),
                            description = "The payment's `version`, e.g. `2`; a different one is 409 conflict")})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentView.class)))
    @ProblemResponse(status = 404, description = "`payment_not_found`")
    @ProblemResponse(status = 409, description = "`invalid_state_transition` (\"capture amount exceeds the remaining "
            + "authorised amount\", \"authorisation has expired\", \"not in an authorised state\") or a stale If-Match")
    @ProblemResponse(status = 504, description = "The processor gave no definite answer; retry with the same key")
    ResponseEntity<byte[]> capture(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode body,
                                   HttpServletRequest request) {
        var keyed = idempotent.keyed(request, body);
        JsonInput in = JsonInput.body(body).allow(Set.of("amount", "metadata"));
        Long amount = in.integer("amount", false, 1, NewPaymentSession.MAX_AMOUNT);
        Map<String, String> metadata = in.metadata("metadata");
        in.throwIfInvalid();
        return service.capture(caller, id, keyed, ifMatch(request), amount, metadata).toEntity();
    }

    @PostMapping("/{id}/voids")
    @Operation(operationId = "voidPayment", summary = "Void an authorised payment",
            description = "Releases the whole remaining authorization into `voided_amount` and sends `payment.voided`; "
                    + "with nothing captured the payment becomes `cancelled` (`payment.cancelled`).",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = VoidRequest.class))),
            parameters = {
                    @Parameter(name = "If-Match", in = ParameterIn.HEADER, schema = @Schema(type = "string"))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentView.class)))
    @ProblemResponse(status = 409, description = "`invalid_state_transition` (\"no remaining authorised amount to "
            + "void\", \"authorisation has expired\", \"not in an authorised state\") or a stale If-Match")
    ResponseEntity<byte[]> voids(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode body,
                                 HttpServletRequest request) {
        var keyed = idempotent.keyed(request, body);
        JsonInput in = JsonInput.body(body).allow(Set.of("metadata"));
        Map<String, String> metadata = in.metadata("metadata");
        in.throwIfInvalid();
        return service.voidPayment(caller, id, keyed, ifMatch(request), metadata).toEntity();
    }

    private static Integer ifMatch(HttpServletRequest request) {
        return IfMatch.version(request, "payment");
    }

    @Schema(name = "CapturePaymentRequest")
    record CaptureRequest(@Schema(minimum = "1", maximum = "99999999",
            description = "Minor units; omitted: all that remains of the authorization") Long amount,
                          @Schema(description = "Merged into the payment's metadata (at most 20 keys).") Map<String, String> metadata) {
    }

    @Schema(name = "VoidPaymentRequest")
    record VoidRequest(@Schema(description = "Merged into the payment's metadata.") Map<String, String> metadata) {
    }

    @Schema(name = "PaymentList")
    record PaymentList(java.util.List<PaymentView> data, boolean hasMore, String nextCursor) {
    }
}
