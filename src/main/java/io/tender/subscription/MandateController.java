package io.tender.subscription;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.ApiException;
import io.tender.api.CursorList;
import io.tender.api.EmptyRequest;
import io.tender.api.Ids;
import io.tender.api.JsonInput;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.api.ProblemResponse;
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
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Mandates (decisions §8): what customers agreed to be charged; read them, see their schedule, cancel them. */
@RestController
@RequestMapping(value = "/collect/mandates", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Mandates", description = "A customer's agreement, made when they paid a `first_in_series` session, to be "
        + "charged later without them (decisions §8).")
record MandateController(SeriesService service, Mandates mandates, SeriesViews views, IdempotentRequests idempotent) {

    private static final Pattern ID = Ids.pattern(Mandate.PREFIX);
    private static final Set<String> STATUSES = Arrays.stream(Mandate.Status.values()).map(Mandate.Status::wire)
            .collect(Collectors.toSet());

    @GetMapping("/{id}")
    @Operation(summary = "Retrieve a mandate")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = MandateView.class)))
    @ProblemResponse(status = 404, description = "`resource_not_found`: no such mandate for this key")
    MandateView get(Caller caller, @PathVariable String id) {
        return service.mandate(caller, id);
    }

    @GetMapping
    @CursorList(idPrefix = "mdt_")
    @Operation(summary = "List mandates", description = "Newest first, with cursor pagination.", parameters = {
            @Parameter(name = "customer", in = ParameterIn.QUERY, schema = @Schema(type = "string", pattern = "^bcus_[a-f0-9]{24}$")),
            @Parameter(name = "status", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"active", "cancelled", "completed"}))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = MandateList.class)))
    ResponseEntity<ListPage<MandateView>> list(Caller caller, HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), ID, Set.of("customer", "status"));
        String status = query.oneOf("status", STATUSES);
        String customer = SeriesInput.customer(query);
        query.throwIfInvalid();
        return ListPage.of(mandates.list(caller, query, customer, status), query.limit(), Mandate::id, views::mandate)
                .toResponse();
    }

    @GetMapping("/{id}/schedule")
    @Operation(summary = "A mandate's coming execution dates",
            description = "The next `count` (1 to 24, default 12) dates a `scheduled` or `installment` mandate may be "
                    + "charged on, from today in its `time_zone`, each with the amount it would take (`null` for a "
                    + "variable amount) and whether its period limit allows it (counting what each period took, the "
                    + "dates listed before it, and a variable amount's minimum). Empty for `on_demand` and once it "
                    + "has ended.",
            parameters = @Parameter(name = "count", in = ParameterIn.QUERY, schema = @Schema(type = "integer", minimum = "1", maximum = "24", defaultValue = "12")))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = ScheduleView.class)))
    @ProblemResponse(status = 404, description = "`resource_not_found`")
    ScheduleView schedule(Caller caller, @PathVariable String id, HttpServletRequest request) {
        var params = request.getParameterMap();
        for (String name : params.keySet()) {
            if (!name.equals("count")) {
                throw ApiException.badRequest(name, "is not a known query parameter");
            }
        }
        int count = 12;
        String[] given = params.get("count");
        if (given != null) {
            if (given.length != 1 || !given[0].matches("^[0-9]{1,2}$") || Integer.parseInt(given[0]) < 1
                    || Integer.parseInt(given[0]) > MandateSchedule.MAX_UPCOMING) {
                throw ApiException.badRequest("count", "must be a whole number from 1 to " + MandateSchedule.MAX_UPCOMING);
            }
            count = Integer.parseInt(given[0]);
        }
        return new ScheduleView(service.schedule(caller, id, count).stream()
                .map(u -> new ScheduleView.Date(u.date().toString(), u.amount(), u.allowed())).toList());
    }

    @PostMapping("/{id}/cancel")
    @Operation(summary = "Cancel a mandate",
            description = "An `active` mandate charges nothing more (`mandate.cancelled`); its subscription, if it has "
                    + "one, is cancelled too. A charge already in flight finishes.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = EmptyRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = MandateView.class)))
    @ProblemResponse(status = 404, description = "`resource_not_found`")
    @ProblemResponse(status = 409, description = "`invalid_state_transition`: the mandate is not active")
    ResponseEntity<byte[]> cancel(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode body,
                                  HttpServletRequest request) {
        return service.cancelMandate(caller, idempotent.keyedWithoutBody(request, body), id).toEntity();
    }

    @Schema(name = "MandateList")
    record MandateList(List<MandateView> data, boolean hasMore, String nextCursor) {
    }

    @Schema(name = "MandateSchedule")
    record ScheduleView(@Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<Date> data) {

        @Schema(name = "MandateScheduleDate")
        record Date(@Schema(format = "date", requiredMode = Schema.RequiredMode.REQUIRED) String date,
                    @JsonInclude(JsonInclude.Include.ALWAYS)
                    @Schema(description = "Minor units; null for a variable amount.", requiredMode = Schema.RequiredMode.REQUIRED, nullable = true) Long amount,
                    @Schema(requiredMode = Schema.RequiredMode.REQUIRED) boolean allowed) {
        }
    }
}
