package io.tender.billing;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.EmptyRequest;
import io.tender.api.CursorList;
import io.tender.api.ProblemResponse;
import io.tender.api.JsonInput;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.auth.Caller;
import io.tender.idempotency.IdempotentRequests;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

@ProblemResponse(status = 404, description = "No such bill for this key")
@RestController
@RequestMapping(value = "/billing/bills", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Bills", description = "Amounts due, raised against an account or a customer; payments are applied to them.")
record BillController(BillingService service, IdempotentRequests requests) {
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create a bill",
            description = "Against an account (existing, or created with its customer first from nested objects) or "
                    + "directly against a customer. Nested creation is one transaction: all objects or none. The bill "
                    + "starts `unpaid` with `amount_paid` 0.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = BillingRequests.CreateBill.class))))
    @ApiResponse(responseCode = "201", content = @Content(schema = @Schema(implementation = BillView.class)))
    @ProblemResponse(status = 400, description = "Validation failed, for example an account and a customer that do "
            + "not belong together")
    @ProblemResponse(status = 404, description = "The named account or customer does not exist for this key")
    @ProblemResponse(status = 409, description = "`resource_already_exists`: an external_reference is taken; "
            + "or an Idempotency-Key conflict")
    ResponseEntity<byte[]> create(Caller caller, @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        NewBill bill = NewBill.parse(body, LocalDate.now(ZoneOffset.UTC));
        return requests.execute(caller, request, body,
                () -> new IdempotentRequests.Result(201, service.createBill(caller, bill)));
    }

    @GetMapping("/{bill}")
    @Operation(summary = "Retrieve a bill", parameters = @Parameter(name = "bill", in = ParameterIn.PATH,
            description = "The bill's id or external_reference"))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = BillView.class)))
    BillView get(Caller caller, @PathVariable String bill) {
        return service.getBill(caller, bill);
    }

    @PatchMapping(value = "/{bill}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Update a bill (manual reconciliation)",
            description = "`amount_paid` replaces the stored value (0 to `amount_due`); `amount_remaining` is "
                    + "recalculated and `status` becomes `paid` at `amount_due`, `unpaid` below it. A voided bill "
                    + "cannot be changed.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = BillingRequests.UpdateBill.class))),
            parameters = {
                    @Parameter(name = "bill", in = ParameterIn.PATH, description = "The bill's id or external_reference")})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = BillView.class)))
    @ProblemResponse(status = 400, description = "Validation failed, for example `amount_paid` above `amount_due`")
    @ProblemResponse(status = 409, description = "`invalid_state_transition`: the bill is voided")
    ResponseEntity<byte[]> patch(Caller caller, @PathVariable String bill, @RequestBody(required = false) JsonNode body,
                                 HttpServletRequest request) {
        BillPatch patch = BillPatch.parse(body);
        return requests.execute(caller, request, body,
                () -> new IdempotentRequests.Result(200, service.patchBill(caller, bill, patch)));
    }

    @PostMapping("/{bill}/void")
    @Operation(summary = "Void a bill",
            description = "Cancels an unpaid bill: status `voided`, and it can no longer be paid or changed. Voiding a "
                    + "voided bill returns it unchanged. Takes no body (or `{}`).",
            parameters = {
                    @Parameter(name = "bill", in = ParameterIn.PATH, description = "The bill's id or external_reference")},
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = EmptyRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = BillView.class)))
    @ProblemResponse(status = 409, description = "`invalid_state_transition`: the bill is paid")
    ResponseEntity<byte[]> voidBill(Caller caller, @PathVariable String bill,
                                    @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        JsonInput.body(body).allow(Set.of()).throwIfInvalid();
        return requests.execute(caller, request, body,
                () -> new IdempotentRequests.Result(200, service.voidBill(caller, bill)));
    }

    @GetMapping
    @CursorList(idPrefix = "bill_")
    @Operation(summary = "List bills", description = "Newest first, with cursor pagination.", parameters = {
            @Parameter(name = "customer", in = ParameterIn.QUERY, description = "Customer id or external_reference", schema = @Schema(type = "string")),
            @Parameter(name = "account", in = ParameterIn.QUERY, description = "Account id or external_reference", schema = @Schema(type = "string")),
            @Parameter(name = "status", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"unpaid", "paid", "voided"})),
            @Parameter(name = "external_reference", in = ParameterIn.QUERY, schema = @Schema(type = "string"))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = BillList.class)))
    ResponseEntity<ListPage<BillView>> list(Caller caller, HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), BillingResource.BILL.idPattern(),
                Set.of("customer", "account", "status", "external_reference"));
        String status = query.oneOf("status", BillStatus.WIRE_VALUES);
        query.throwIfInvalid();
        return service.listBills(caller, query, query.single("customer"), query.single("account"), status,
                query.single("external_reference")).toResponse();
    }

    @Schema(name = "BillList")
    record BillList(List<BillView> data, boolean hasMore, String nextCursor) {
    }
}
