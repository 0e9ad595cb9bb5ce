package io.tender.event;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.CursorList;
import io.tender.api.ProblemResponse;
import io.tender.api.Ids;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
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

@ProblemResponse(status = 404, description = "No such event for this key")
@RestController
@RequestMapping(value = "/events", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Events", description = "The event log: every state change, as webhooks deliver it.")
record EventController(EventLog log) {

    private static final Pattern ID = Ids.pattern("evt_");

    @GetMapping("/{id}")
    @Operation(summary = "Retrieve an event")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = EventView.class)))
    EventView get(Caller caller, @PathVariable String id) {
        return EventView.of(log.get(caller, id));
    }

    @GetMapping
    @CursorList(idPrefix = "evt_")
    @Operation(summary = "List events", description = "Newest first, with cursor pagination. Events are kept for "
            + "the configured retention (30 days by default).", parameters = {
            @Parameter(name = "type", in = ParameterIn.QUERY, schema = @Schema(type = "string", example = "redemption.confirmed"))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = EventList.class)))
    @ProblemResponse(status = 400, description = "Unknown parameter or event type")
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
