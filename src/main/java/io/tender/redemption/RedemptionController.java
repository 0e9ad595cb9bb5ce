package io.tender.redemption;

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
import io.tender.api.Ids;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.auth.Caller;
import io.tender.idempotency.IdempotencyKeys;
import io.tender.idempotency.IdempotentRequests;
import io.tender.api.ApiException;
import io.tender.api.IfMatch;
import io.tender.api.JsonInput;
import io.tender.provider.RedemptionType;
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
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

@ProblemResponse(status = 404, description = "No such redemption for this key")
@RestController
@RequestMapping(value = "/collect/redemptions", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Redemptions", description = "Redeem stored-value vouchers at external voucher providers.")
record RedemptionController(RedemptionService service, IdempotentRequests idempotent) {

    private static final Pattern ID = Ids.pattern("rdm_");
    private static final Set<String> STATUSES = Arrays.stream(RedemptionStatus.values())
            .map(RedemptionStatus::wire).collect(Collectors.toSet());
    private static final Set<String> TYPES = Arrays.stream(RedemptionType.values())
            .map(RedemptionType::wire).collect(Collectors.toSet());

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create a redemption",
            description = "Redeems a voucher at its provider. Answers 201 whatever the provider decided: inspect "
                    + "`status` and `last_error`. Send an `Idempotency-Key` to make retries safe.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = CreateRedemptionRequest.class))))
    @ApiResponse(responseCode = "201", description = "Redemption created (confirmed or failed)",
            content = @Content(schema = @Schema(implementation = RedemptionView.class)))
    ResponseEntity<byte[]> create(Caller caller, @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        IdempotencyKeys.validate(request.getHeader(IdempotentRequests.HEADER));
        NewRedemption redemption = NewRedemption.parse(body);
        return service.create(caller, idempotent.keyed(request, body), redemption).toEntity();
    }

    @PostMapping("/{id}/confirm")
    @Operation(summary = "Confirm a held redemption",
            description = "Captures a `reserved` redemption of a provider with holds: all of the reservation, or "
                    + "`amount` of it (a change voucher covers the rest). `If-Match: <version>` guards against acting "
                    + "on a stale view.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = ConfirmRequest.class))),
            parameters = {
                    @Parameter(name = "If-Match", in = ParameterIn.HEADER, schema = @Schema(type = "string"),
                            description = "The version the client last saw, e.g. `2`; a different one is 409 conflict")})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = RedemptionView.class)))
    @ProblemResponse(status = 409, description = "Not reserved, or a stale If-Match")
    ResponseEntity<byte[]> confirm(Caller caller, @PathVariable String id,
                                   @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        IdempotencyKeys.validate(request.getHeader(IdempotentRequests.HEADER));
        JsonInput in = JsonInput.body(body).allow(Set.of("amount"));
        Long amount = in.integer("amount", false, 1, NewRedemption.MAX_AMOUNT);
        in.throwIfInvalid();
        return service.confirm(caller, id, idempotent.keyed(request, body), ifMatch(request), amount).toEntity();
    }

    @PostMapping("/{id}/reverse")
    @Operation(summary = "Reverse a held redemption",
            description = "Releases the reservation of a `reserved` redemption; it ends `failed` with "
                    + "`reversed_amount` set and a `reverse` operation.",
            parameters = {
                    @Parameter(name = "If-Match", in = ParameterIn.HEADER, schema = @Schema(type = "string"))},
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = EmptyRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = RedemptionView.class)))
    @ProblemResponse(status = 409, description = "Not reserved, or a stale If-Match")
    ResponseEntity<byte[]> reverse(Caller caller, @PathVariable String id,
                                   @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        IdempotencyKeys.validate(request.getHeader(IdempotentRequests.HEADER));
        JsonInput.body(body).allow(Set.of()).throwIfInvalid();
        return service.reverse(caller, id, idempotent.keyed(request, body), ifMatch(request)).toEntity();
    }

    private static Integer ifMatch(HttpServletRequest request) {
        return IfMatch.version(request, "redemption");
    }

    @Schema(name = "ConfirmRedemptionRequest")
    record ConfirmRequest(@Schema(minimum = "1", maximum = "99999999",
            description = "Capture this much of the reservation; omitted: all of it") Long amount) {
    }

    @GetMapping("/{id}")
    @Operation(summary = "Retrieve a redemption")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = RedemptionView.class)))
    ResponseEntity<RedemptionView> get(Caller caller, @PathVariable String id) {
        return IfMatch.tagged(service.get(caller, id), RedemptionView::version);
    }

    @GetMapping
    @CursorList(idPrefix = "rdm_")
    @Operation(summary = "List redemptions", description = "Newest first, with cursor pagination.", parameters = {
            @Parameter(name = "status", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"draft", "reserved", "confirmed", "failed"})),
            @Parameter(name = "type", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"vouchers.one_voucher", "vouchers.ott", "vouchers.provider_c"})),
            @Parameter(name = "external_reference", in = ParameterIn.QUERY, schema = @Schema(type = "string"))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = RedemptionList.class)))
    ResponseEntity<ListPage<RedemptionView>> list(Caller caller, HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), ID, Set.of("status", "type", "external_reference"));
        String status = query.oneOf("status", STATUSES);
        String type = query.oneOf("type", TYPES);
        query.throwIfInvalid();
        return service.list(caller, query, status, type, query.single("external_reference")).toResponse();
    }

    @Schema(name = "RedemptionList")
    record RedemptionList(java.util.List<RedemptionView> data, boolean hasMore, String nextCursor) {
    }
}
