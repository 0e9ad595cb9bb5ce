package io.tender.subscription;

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
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Subscriptions (decisions §8): Tender charges them itself; read, cancel and resume them, and test clocks. */
@RestController
@Tag(name = "Subscriptions", description = "A mandate Tender charges itself every interval, each period exactly once, "
        + "with retries of soft declines and a notice before each charge (decisions §8).")
record SubscriptionController(SeriesService service, TestClocks clocks, Subscriptions subscriptions,
                              IdempotentRequests idempotent) {

    private static final Pattern ID = Ids.pattern(Subscription.PREFIX);
    private static final Set<String> STATUSES = Arrays.stream(Subscription.Status.values())
            .map(Subscription.Status::wire).collect(Collectors.toSet());

    @GetMapping(value = "/collect/subscriptions/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Retrieve a subscription")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = SubscriptionView.class)))
    @ProblemResponse(status = 404, description = "`resource_not_found`: no such subscription for this key")
    SubscriptionView get(Caller caller, @PathVariable String id) {
        return service.subscription(caller, id);
    }

    @GetMapping(value = "/collect/subscriptions", produces = MediaType.APPLICATION_JSON_VALUE)
    @CursorList(idPrefix = "sub_")
    @Operation(summary = "List subscriptions", description = "Newest first, with cursor pagination.", parameters = {
            @Parameter(name = "customer", in = ParameterIn.QUERY, schema = @Schema(type = "string", pattern = "^bcus_[a-f0-9]{24}$")),
            @Parameter(name = "status", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"active", "past_due", "unpaid", "cancelled", "completed"}))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = SubscriptionList.class)))
    ResponseEntity<ListPage<SubscriptionView>> list(Caller caller, HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), ID, Set.of("customer", "status"));
        String status = query.oneOf("status", STATUSES);
        String customer = SeriesInput.customer(query);
        query.throwIfInvalid();
        return ListPage.of(subscriptions.list(caller, query, customer, status), query.limit(), Subscription::id,
                SubscriptionView::of).toResponse();
    }

    @PostMapping(value = "/collect/subscriptions/{id}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Cancel a subscription",
            description = "Nothing more is charged (`subscription.cancelled`), and its mandate is cancelled too. A "
                    + "charge already in flight finishes.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = EmptyRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = SubscriptionView.class)))
    @ProblemResponse(status = 404, description = "`resource_not_found`")
    @ProblemResponse(status = 409, description = "`invalid_state_transition`: cancelled or completed already")
    ResponseEntity<byte[]> cancel(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode body,
                                  HttpServletRequest request) {
        return service.cancelSubscription(caller, idempotent.keyedWithoutBody(request, body), id).toEntity();
    }

    @PostMapping(value = "/collect/subscriptions/{id}/resume", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Resume an unpaid subscription",
            description = "Charges its oldest unpaid period at once (one attempt, no retry after it) and goes on from "
                    + "there; dates missed while it was unpaid are not charged. Answers the subscription after that "
                    + "charge: `active` when it succeeded, `unpaid` (or `cancelled`) again when it was declined.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = EmptyRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = SubscriptionView.class)))
    @ProblemResponse(status = 404, description = "`resource_not_found`")
    @ProblemResponse(status = 409, description = "`invalid_state_transition`: the subscription is not `unpaid`")
    ResponseEntity<byte[]> resume(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode body,
                                  HttpServletRequest request) {
        return service.resume(caller, idempotent.keyedWithoutBody(request, body), id).toEntity();
    }

    @PostMapping(value = "/collect/test_helpers/subscriptions/{id}/advance", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Advance a subscription's test clock (test mode)",
            description = "Moves the subscription's clock forward to `to` and runs, in order, every notice, charge and "
                    + "retry due up to and including that date, as the schedule would have on each of those days. "
                    + "Answers the subscription with the `payments` this advance made. Advancing again to the same "
                    + "date does nothing more; an earlier date is 409. Advances of one subscription run one at a "
                    + "time: another one running is 409 `conflict` with `Retry-After`. The clock never moves past a "
                    + "date whose notice, charge or retry is not finished: an advance that meets a charge whose "
                    + "answer is unknown (or one another flow holds) stays at its date and says so in "
                    + "`advance_stopped`. Live mode: 404.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = AdvanceRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = SubscriptionView.class)))
    @ProblemResponse(status = 404, description = "`resource_not_found`: no such subscription, or live mode")
    @ProblemResponse(status = 409, description = "`invalid_state_transition`: `to` is before the clock's date; `conflict` (with `Retry-After`): another advance of the subscription is running")
    ResponseEntity<byte[]> advance(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode body,
                                   HttpServletRequest request) {
        var keyed = idempotent.keyed(request, body);
        JsonInput in = JsonInput.body(body).allow(Set.of("to"));
        LocalDate to = SeriesInput.date(in, "to", true);
        in.throwIfInvalid();
        return clocks.advance(caller, keyed, id, to).toEntity();
    }

    @Schema(name = "AdvanceTestClockRequest")
    record AdvanceRequest(@Schema(format = "date", requiredMode = Schema.RequiredMode.REQUIRED, example = "2027-03-01",
            description = "The date to move the clock to (inclusive), in the subscription's `time_zone`; at most 366 days ahead.") String to) {
    }

    @Schema(name = "SubscriptionList")
    record SubscriptionList(List<SubscriptionView> data, boolean hasMore, String nextCursor) {
    }
}
