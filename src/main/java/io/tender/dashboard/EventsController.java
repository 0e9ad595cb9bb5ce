package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.api.ApiException;
import io.tender.api.FieldError;
import io.tender.api.Ids;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.auth.Caller;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import io.tender.event.EventTypes;
import io.tender.outbox.EventLog;
import io.tender.outbox.OutboxEvent;
import io.tender.webhook.WebhookDeliveryLog;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.databind.json.JsonMapper;

import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The event log of Developers (decisions §11): the merchant's events in the URL's mode, newest first, filtered by type,
 * a page at a time (keyset, like {@code GET /events}), and each event's page with its JSON as webhooks carry it and
 * where it was delivered. Everyone signed in reads it; events hold no secret (they are masked as in the API).
 */
@Hidden
@Controller
record EventsController(EventLog events, WebhookDeliveryLog deliveries, Merchants merchants, JsonMapper json) {

    static final int PAGE_SIZE = 25;
    private static final Pattern EVENT_ID = Ids.pattern("evt_");

    @GetMapping("/dashboard/{mode:test|live}/developers/events")
    String list(@PathVariable String mode, @RequestParam(name = "type", required = false) String type,
                @RequestParam(name = "cursor", required = false) String cursor,
                @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletResponse response,
                Model model) {
        Chrome.add(model, user, mode, "developers", csrf, merchants);
        String filter = type == null || type.isBlank() ? null : type.trim();
        model.addAttribute("type", filter == null ? "" : filter);
        model.addAttribute("eventTypes", EventTypes.ALL);
        Map<String, String[]> parameters = new HashMap<>();
        parameters.put("limit", new String[]{Integer.toString(PAGE_SIZE)});
        if (cursor != null && !cursor.isBlank()) {
            parameters.put("cursor", new String[]{cursor});
        }
        if (filter != null) {
            parameters.put("type", new String[]{filter});
        }
        try {
            var query = new ListQuery(parameters, EVENT_ID, Set.of("type"));
            query.oneOf("type", Set.copyOf(EventTypes.ALL));
            query.throwIfInvalid();
            Caller caller = Caller.system(user.merchantId(), Mode.fromWire(mode));
            var page = ListPage.of(events.list(caller, query, filter), query.limit(), OutboxEvent::id,
                    ListedEvent::of);
            String self = "/dashboard/" + mode + "/developers/events";
            model.addAttribute("rows", page.data());
            model.addAttribute("nextUrl", page.hasMore() ? self + query(filter, page.nextCursor()) : null);
            model.addAttribute("firstUrl", cursor == null || cursor.isBlank() ? null : self + query(filter, null));
            model.addAttribute("errors", Map.of());
        } catch (ApiException refused) {
            Map<String, String> errors = new LinkedHashMap<>();
            for (FieldError error : refused.errors()) {
                errors.putIfAbsent(error.field(), error.message());
            }
            model.addAttribute("rows", List.of());
            model.addAttribute("errors", errors);
            response.setStatus(HttpStatus.BAD_REQUEST.value());
        }
        return "dashboard/events";
    }

    @GetMapping("/dashboard/{mode:test|live}/developers/events/{id}")
    String event(@PathVariable String mode, @PathVariable String id, @AuthenticationPrincipal SignedInUser user,
                 CsrfToken csrf, HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "developers", csrf, merchants);
        Caller caller = Caller.system(user.merchantId(), Mode.fromWire(mode));
        var found = EVENT_ID.matcher(id).matches() ? events.find(caller, id) : java.util.Optional.<OutboxEvent>empty();
        if (found.isEmpty()) {
            return WebhooksController.notFound("event", id, response, model);
        }
        OutboxEvent event = found.get();
        model.addAttribute("event", ListedEvent.of(event));
        // Escaped when shown (th:text): the data is the merchant's customers' text as much as ours.
        model.addAttribute("json", json.writerWithDefaultPrettyPrinter().writeValueAsString(event.envelope()));
        model.addAttribute("deliveries", deliveries.ofEvents(caller, List.of(id)).getOrDefault(id, List.of()).stream()
                .map(EventDelivery::of).toList());
        model.addAttribute("canAct", WebhooksController.acts(user, mode));
        return "dashboard/event";
    }

    private static String query(String type, String cursor) {
        UriComponentsBuilder uri = UriComponentsBuilder.newInstance();
        if (type != null) {
            uri.queryParam("type", type);
        }
        if (cursor != null) {
            uri.queryParam("cursor", cursor);
        }
        return uri.encode().build().toUriString();
    }

    /** One event as the log and its page show it; {@code link} is the aggregate's dashboard page, when it has one. */
    public record ListedEvent(String id, String type, String at, String aggregateType, String aggregateId,
                              String link) {
        static ListedEvent of(OutboxEvent e) {
            String mode = e.mode().wire();
            String link = e.aggregateId().startsWith("pay_") ? "/dashboard/" + mode + "/payments/" + e.aggregateId()
                    : e.aggregateId().startsWith("we_") ? "/dashboard/" + mode + "/developers/webhooks/" + e.aggregateId()
                    : null;
            return new ListedEvent(e.id(), e.type(),
                    WebhooksController.SECONDS.format(e.createdAt().atOffset(ZoneOffset.UTC)),
                    e.aggregateType().substring(e.aggregateType().lastIndexOf('.') + 1).replace('_', ' '),
                    e.aggregateId(), link);
        }
    }

    /** Where an event went: the endpoint, the delivery's state in words, its attempts and last answer. */
    public record EventDelivery(String endpointId, String url, String status, String state, int attempts,
                                String lastResponse, String lastAt) {
        static EventDelivery of(WebhookDeliveryLog.Delivery d) {
            String state = switch (d.status()) {
                case "succeeded" -> "Delivered";
                case "failed" -> "Failed";
                default -> "Waiting";
            };
            return new EventDelivery(d.endpointId(), d.url(), d.status(), state, d.attempts(),
                    d.lastResponseStatus() == null ? "No answer yet" : "HTTP " + d.lastResponseStatus(),
                    d.lastAttemptAt() == null ? "Not yet"
                            : WebhooksController.SECONDS.format(d.lastAttemptAt().atOffset(ZoneOffset.UTC)));
        }
    }
}
