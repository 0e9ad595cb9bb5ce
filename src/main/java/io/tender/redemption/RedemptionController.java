package io.tender.redemption;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.Ids;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.api.Problem;
import io.tender.auth.Caller;
import io.tender.idempotency.IdempotencyKeys;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.RequestFingerprint;
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

@RestController
@RequestMapping(value = "/collect/redemptions", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Redemptions", description = "Redeem stored-value vouchers at external voucher providers.")
class RedemptionController {

    private static final Pattern ID = Ids.pattern("rdm_");
    private static final Set<String> STATUSES = Arrays.stream(RedemptionStatus.values())
            .map(RedemptionStatus::wire).collect(Collectors.toSet());
    private static final Set<String> TYPES = Arrays.stream(RedemptionType.values())
            .map(RedemptionType::wire).collect(Collectors.toSet());

    private final RedemptionService service;

    RedemptionController(RedemptionService service) {
        this.service = service;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create a redemption",
            description = "Redeems a voucher at its provider. Answers 201 whatever the provider decided: inspect "
                    + "`status` and `last_error`. Send an `Idempotency-Key` to make retries safe.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = CreateRedemptionRequest.class))),
            parameters = @Parameter(name = IdempotentRequests.HEADER, in = ParameterIn.HEADER,
                    schema = @Schema(type = "string", minLength = 1, maxLength = 200)))
    @ApiResponse(responseCode = "201", description = "Redemption created (confirmed or failed)",
            content = @Content(schema = @Schema(implementation = RedemptionView.class)))
    @ApiResponse(responseCode = "400", description = "Validation failed", content = @Content(
            mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
    @ApiResponse(responseCode = "401", description = "Missing or invalid key", content = @Content(
            mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
    @ApiResponse(responseCode = "409", description = "Idempotency-Key reused with another body, or still in progress",
            content = @Content(mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
    ResponseEntity<byte[]> create(Caller caller, @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        String key = request.getHeader(IdempotentRequests.HEADER);
        IdempotencyKeys.validate(key);
        NewRedemption redemption = NewRedemption.parse(body);
        var fingerprint = RequestFingerprint.of("POST", request.getRequestURI(), body);
        return service.create(caller, key, fingerprint, redemption).toEntity();
    }

    @GetMapping("/{id}")
    @Operation(summary = "Retrieve a redemption")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = RedemptionView.class)))
    @ApiResponse(responseCode = "404", description = "No such redemption for this key", content = @Content(
            mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
    RedemptionView get(Caller caller, @PathVariable String id) {
        return service.get(caller, id);
    }

    @GetMapping
    @Operation(summary = "List redemptions", description = "Newest first, with cursor pagination.", parameters = {
            @Parameter(name = "limit", in = ParameterIn.QUERY, schema = @Schema(type = "integer", minimum = "1", maximum = "100", defaultValue = "20")),
            @Parameter(name = "cursor", in = ParameterIn.QUERY, schema = @Schema(type = "string", pattern = "^rdm_[a-f0-9]{24}$")),
            @Parameter(name = "status", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"draft", "reserved", "confirmed", "failed"})),
            @Parameter(name = "type", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"vouchers.one_voucher", "vouchers.ott", "vouchers.provider_c"})),
            @Parameter(name = "external_reference", in = ParameterIn.QUERY, schema = @Schema(type = "string")),
            @Parameter(name = "created_at[gte]", in = ParameterIn.QUERY, schema = @Schema(type = "string", format = "date-time")),
            @Parameter(name = "created_at[lt]", in = ParameterIn.QUERY, schema = @Schema(type = "string", format = "date-time"))})
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
