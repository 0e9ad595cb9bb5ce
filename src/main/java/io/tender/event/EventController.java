package io.tender.event;

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
import io.tender.outbox.EventLog;
import io.tender.outbox.OutboxEvent;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

@RestController
@RequestMapping(value = "/events", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Events", description = "The event log: every state change, as webhooks deliver it.")
class EventController {

    private static final Pattern ID = Ids.pattern("evt_");

    private final EventLog log;

    EventController(EventLog log) {
        this.log = log;
    }

    @GetMapping("/{id}")
    @Operation(summary = "Retrieve an event")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = EventView.class)))
    @ApiResponse(responseCode = "404", description = "No such event for this key", content = @Content(
            mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
    EventView get(Caller caller, @PathVariable String id) {
        return EventView.of(log.get(caller, id));
    }

    @GetMapping
    @Operation(summary = "List events", description = "Newest first, with cursor pagination. Events are kept for "
            + "the configured retention (30 days by default).", parameters = {
            @Parameter(name = "limit", in = ParameterIn.QUERY, schema = @Schema(type = "integer", minimum = "1", maximum = "100", defaultValue = "20")),
            @Parameter(name = "cursor", in = ParameterIn.QUERY, schema = @Schema(type = "string", pattern = "^evt_[a-f0-9]{24}$")),
            @Parameter(name = "type", in = ParameterIn.QUERY, schema = @Schema(type = "string", example = "redemption.confirmed")),
            @Parameter(name = "created_at[gte]", in = ParameterIn.QUERY, schema = @Schema(type = "string", format = "date-time")),
            @Parameter(name = "created_at[lt]", in = ParameterIn.QUERY, schema = @Schema(type = "string", format = "date-time"))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = EventList.class)))
    @ApiResponse(responseCode = "400", description = "Unknown parameter or event type", content = @Content(
            mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
    ResponseEntity<ListPage<EventView>> list(Caller caller, HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), ID, Set.of("type"));
        String type = query.oneOf("type", Set.copyOf(EventTypes.ALL));
        query.throwIfInvalid();
        return ListPage.of(log.list(caller, query, type), query.limit(), OutboxEvent::id, EventView::of).toResponse();
    }

    @Schema(name = "EventList")
    record EventList(List<EventView> data, boolean hasMore, String nextCursor) {
    }
}
