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

@ProblemResponse(status = 404, description = "No such account for this key")
@RestController
@RequestMapping(value = "/billing/accounts", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Accounts", description = "A customer's accounts, each with a balance payments are applied to, and their payment rules.")
record AccountController(BillingService service, IdempotentRequests requests) {
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create an account",
            description = "Under an existing customer, or under a customer created first from the nested object, in one "
                    + "transaction: both or neither.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = BillingRequests.CreateAccount.class))))
    @ApiResponse(responseCode = "201", content = @Content(schema = @Schema(implementation = AccountView.class)))
    @ProblemResponse(status = 404, description = "The named customer does not exist for this key")
    @ProblemResponse(status = 409, description = "`resource_already_exists`: an external_reference is taken; "
            + "or an Idempotency-Key conflict")
    ResponseEntity<byte[]> create(Caller caller, @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        NewAccount account = NewAccount.parse(body);
        return requests.execute(caller, request, body,
                () -> new IdempotentRequests.Result(201, service.createAccount(caller, account)));
    }

    @GetMapping("/{account}")
    @Operation(summary = "Retrieve an account", parameters = @Parameter(name = "account", in = ParameterIn.PATH,
            description = "The account's id or external_reference"))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = AccountView.class)))
    AccountView get(Caller caller, @PathVariable String account) {
        return service.getAccount(caller, account);
    }

    @PatchMapping(value = "/{account}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Update an account",
            description = "Replaces the `balance` of this account only; changes `name` and `payment_rules`; sets "
                    + "`currency` if it has none; merges `metadata`. Answers the full updated account.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = BillingRequests.UpdateAccount.class))),
            parameters = {
                    @Parameter(name = "account", in = ParameterIn.PATH, description = "The account's id or external_reference")})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = AccountView.class)))
    @ProblemResponse(status = 400, description = "Validation failed, for example a balance without a currency")
    @ProblemResponse(status = 409, description = "`conflict`: a different currency than the one set")
    ResponseEntity<byte[]> patch(Caller caller, @PathVariable String account, @RequestBody(required = false) JsonNode body,
                                 HttpServletRequest request) {
        AccountPatch patch = AccountPatch.parse(body);
        return requests.execute(caller, request, body,
                () -> new IdempotentRequests.Result(200, service.patchAccount(caller, account, patch)));
    }

    @GetMapping
    @CursorList(idPrefix = "bacc_")
    @Operation(summary = "List accounts", description = "Newest first, with cursor pagination.", parameters = {
            @Parameter(name = "customer", in = ParameterIn.QUERY, description = "Customer id or external_reference", schema = @Schema(type = "string")),
            @Parameter(name = "external_reference", in = ParameterIn.QUERY, schema = @Schema(type = "string"))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = AccountList.class)))
    ResponseEntity<ListPage<AccountView>> list(Caller caller, HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), BillingResource.ACCOUNT.idPattern(),
                Set.of("customer", "external_reference")).throwIfInvalid();
        return service.listAccounts(caller, query, query.single("customer"), query.single("external_reference"))
                .toResponse();
    }

    @Schema(name = "AccountList")
    record AccountList(List<AccountView> data, boolean hasMore, String nextCursor) {
    }
}
