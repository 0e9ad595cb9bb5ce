package io.tender.billing;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.CursorList;
import io.tender.api.ProblemResponse;
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

import java.util.List;
import java.util.Set;

@ProblemResponse(status = 404, description = "No such customer for this key")
@RestController
@RequestMapping(value = "/billing/customers", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Customers", description = "Billing's customers: whom bills and accounts belong to, with a balance payments are applied to.")
record CustomerController(BillingService service, IdempotentRequests requests) {
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create a customer",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = BillingRequests.CreateCustomer.class))))
    @ApiResponse(responseCode = "201", content = @Content(schema = @Schema(implementation = CustomerView.class)))
    @ProblemResponse(status = 409, description = "`resource_already_exists`: the external_reference is taken; "
            + "or an Idempotency-Key conflict")
    ResponseEntity<byte[]> create(Caller caller, @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        NewCustomer customer = NewCustomer.parse(body);
        return requests.execute(caller, request, body,
                () -> new IdempotentRequests.Result(201, service.createCustomer(caller, customer)));
    }

    @GetMapping("/{customer}")
    @Operation(summary = "Retrieve a customer", parameters = @Parameter(name = "customer", in = ParameterIn.PATH,
            description = "The customer's id or external_reference"))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = CustomerView.class)))
    CustomerView get(Caller caller, @PathVariable String customer) {
        return service.getCustomer(caller, customer);
    }

    @PatchMapping(value = "/{customer}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Update a customer",
            description = "Replaces `balance`; changes `name`, `email`, `phone`, `payment_rules`; sets `currency` if it "
                    + "has none; merges `metadata`. Answers the full updated customer.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = BillingRequests.UpdateCustomer.class))),
            parameters = {
                    @Parameter(name = "customer", in = ParameterIn.PATH, description = "The customer's id or external_reference")})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = CustomerView.class)))
    @ProblemResponse(status = 400, description = "Validation failed, for example a balance without a currency")
    @ProblemResponse(status = 409, description = "`conflict`: a different currency than the one set")
    ResponseEntity<byte[]> patch(Caller caller, @PathVariable String customer, @RequestBody(required = false) JsonNode body,
                                 HttpServletRequest request) {
        CustomerPatch patch = CustomerPatch.parse(body);
        return requests.execute(caller, request, body,
                () -> new IdempotentRequests.Result(200, service.patchCustomer(caller, customer, patch)));
    }

    @GetMapping
    @CursorList(idPrefix = "bcus_")
    @Operation(summary = "List customers", description = "Newest first, with cursor pagination.", parameters = {
            @Parameter(name = "external_reference", in = ParameterIn.QUERY, schema = @Schema(type = "string"))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = CustomerList.class)))
    ResponseEntity<ListPage<CustomerView>> list(Caller caller, HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), BillingResource.CUSTOMER.idPattern(),
                Set.of("external_reference")).throwIfInvalid();
        return service.listCustomers(caller, query, query.single("external_reference")).toResponse();
    }

    @Schema(name = "CustomerList")
    record CustomerList(List<CustomerView> data, boolean hasMore, String nextCursor) {
    }
}
