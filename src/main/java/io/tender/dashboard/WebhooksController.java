package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.api.ApiException;
import io.tender.api.FieldError;
import io.tender.auth.Caller;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import io.tender.event.EventTypes;
import io.tender.idempotency.StoredResponse;
import io.tender.webhook.WebhookActions;
import io.tender.webhook.WebhookDeliveryLog;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The webhook pages of Developers (decisions §11): the merchant's endpoints in the URL's mode and a form to add one,
 * each endpoint's page with its delivery attempts a page at a time and its actions (disable or enable, rotate the
 * secret, send a test event, resend any attempt's event, a delivered one too). Every action runs the API's own flow
 * through {@link WebhookActions} under the form's Idempotency-Key, goes into the audit log, and a refusal shows the
 * API's words. A secret is shown once, on the page that answers the create or the rotation. Viewers read; POSTs need
 * an owner or a developer, in live mode an owner ({@code DashboardSecurity}).
 */
@Hidden
@Controller
class WebhooksController {

    /** Attempts on one page of an endpoint's deliveries. */
    static final int PAGE_SIZE = 25;
    /** Waiting deliveries an endpoint's page lists at most. */
    private static final int WAITING_SHOWN = 20;
    /** Characters of a receiver's answer a row shows (the rest is behind "Full answer"). */
    private static final int EXCERPT_SHOWN = 120;
    private static final Pattern KEY = Pattern.compile(
            "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    private static final Pattern ENDPOINT_ID = Pattern.compile("^we_[a-f0-9]{24}$");
    private static final Pattern EVENT_ID = Pattern.compile("^evt_[a-f0-9]{24}$");
    static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("d MMM yyyy, HH:mm:ss 'UTC'",
            Locale.ENGLISH);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMM yyyy", Locale.ENGLISH);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'", Locale.ENGLISH);
    static final String EXPIRED_FORM = "This form has expired. Open the page again and repeat the action.";

    private final WebhookDeliveryLog log;
    private final WebhookActions actions;
    private final Merchants merchants;
    private final AuditLog audit;
    private final JsonMapper json;
    private final Reauthentication reauth;

    WebhooksController(WebhookDeliveryLog log, WebhookActions actions, Merchants merchants, AuditLog audit,
                       JsonMapper json, Reauthentication reauth) {
        this.reauth = reauth;
        this.log = log;
        this.actions = actions;
        this.merchants = merchants;
        this.audit = audit;
        this.json = json;
    }

    @GetMapping("/dashboard/{mode:test|live}/developers/webhooks")
    String list(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, Model model) {
        Chrome.add(model, user, mode, "developers", csrf, merchants);
        return listPage(user, mode, new NewEndpoint("", true, List.of(), ""), Map.of(), null, model);
    }

    /** Adds an endpoint as {@code POST /webhook_endpoints} would, then shows its secret this once. */
    @PostMapping("/dashboard/{mode:test|live}/developers/webhooks")
    String create(@PathVariable String mode,
                  @RequestParam(name = "url", required = false) String url,
                  @RequestParam(name = "events", required = false) String scope,
                  @RequestParam(name = "enabled_events", required = false) List<String> types,
                  @RequestParam(name = "description", required = false) String description,
                  @RequestParam(name = "idempotency_key", required = false) String key,
                  @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                  HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "developers", csrf, merchants);
        boolean all = !"some".equals(scope);
        List<String> chosen = types == null ? List.of() : types;
        var form = new NewEndpoint(url == null ? "" : url.trim(), all, chosen, description == null ? "" : description);
        if (key == null || !KEY.matcher(key).matches()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            return listPage(user, mode, form, Map.of(), EXPIRED_FORM, model);
        }
        Optional<String> confirm = reauth.confirmInLive(user, mode, "Adding a live webhook endpoint", request,
                response, model);
        if (confirm.isPresent()) {
            return confirm.get();
        }
        StoredResponse answer;
        try {
            answer = actions.create(user.merchantId(), Mode.fromWire(mode), key, form.url(),
                    all ? List.of(EventTypes.WILDCARD) : chosen,
                    form.description().isBlank() ? null : form.description().trim(), request);
        } catch (ApiException refused) {
            response.setStatus(refused.status());
            return listPage(user, mode, form, byField(refused.errors()), null, model);
        }
        if (answer.status() >= 300) {
            response.setStatus(answer.status());
            return listPage(user, mode, form, Map.of(), detail(answer), model);
        }
        JsonNode created = json.readTree(answer.body());
        String id = created.get("id").stringValue();
        if (!answer.replayed()) {
            audit.append(new AuditLog.Entry(user.merchantId(), user.userId(), user.email(), "webhook_endpoint.created",
                    id, mode, null, state(created)), request);
        }
        return secretPage(mode, id, created, false, model);
    }

    @GetMapping("/dashboard/{mode:test|live}/developers/webhooks/{id}")
    String endpoint(@PathVariable String mode, @PathVariable String id,
                    @RequestParam(name = "cursor", required = false) String cursor,
                    @RequestParam(name = "done", required = false) String done,
                    @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletResponse response,
                    Model model) {
        Chrome.add(model, user, mode, "developers", csrf, merchants);
        var endpoint = find(user, mode, id);
        if (endpoint.isEmpty()) {
            return notFound("webhook endpoint", id, response, model);
        }
        model.addAttribute("notice", done == null ? null : DONE.get(done));
        try {
            return endpointPage(user, mode, endpoint.get(), cursor, null, model);
        } catch (ApiException badCursor) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            return endpointPage(user, mode, endpoint.get(), null,
                    "That page of deliveries does not exist; here is the first.", model);
        }
    }

    /** What the endpoint's page says after an action went through. */
    private static final Map<String, String> DONE = Map.of(
            "disabled", "The endpoint is disabled: no events go to it until it is enabled again.",
            "enabled", "The endpoint is enabled. Deliveries that were waiting go out now.",
            "test", "Test event sent. Its delivery appears below within a few seconds (reload to see it).",
            "resent", "Resend queued. The new attempt appears below within a few seconds (reload to see it).");

    /**
     * Disables (after a confirmation) or enables the endpoint, as {@code PATCH {"status": …}} does; 303 back to it.
     */
    @PostMapping("/dashboard/{mode:test|live}/developers/webhooks/{id}/{action:disable|enable}")
    String setEnabled(@PathVariable String mode, @PathVariable String id, @PathVariable String action,
                      @RequestParam(name = "idempotency_key", required = false) String key,
                      @RequestParam(name = "confirmed", required = false) String confirmed,
                      @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                      HttpServletResponse response, Model model) {
        ActionForm form = actionForm(user, mode, id, key, csrf, response, model);
        if (form.answer() != null) {
            return form.answer();
        }
        var endpoint = form.endpoint();
        boolean enable = action.equals("enable");
        if (!enable && !"yes".equals(confirmed)) {
            return confirmPage(mode, endpoint, action, key, model);
        }
        StoredResponse answer = actions.setEnabled(user.merchantId(), Mode.fromWire(mode), id, key, enable, request);
        if (answer.status() >= 300) {
            return refused(user, mode, endpoint, answer, response, model);
        }
        if (!answer.replayed() && endpoint.enabled() != enable) {
            audit.append(new AuditLog.Entry(user.merchantId(), user.userId(), user.email(),
                    "webhook_endpoint." + (enable ? "enabled" : "disabled"), id, mode,
                    status(endpoint.enabled()), status(enable)), request);
        }
        return seeOther(mode, id, enable ? "enabled" : "disabled", response);
    }

    /** Rotates the signing secret after a confirmation, then shows the new one this once. */
    @PostMapping("/dashboard/{mode:test|live}/developers/webhooks/{id}/rotate")
    String rotate(@PathVariable String mode, @PathVariable String id,
                  @RequestParam(name = "idempotency_key", required = false) String key,
                  @RequestParam(name = "confirmed", required = false) String confirmed,
                  @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                  HttpServletResponse response, Model model) {
        ActionForm form = actionForm(user, mode, id, key, csrf, response, model);
        if (form.answer() != null) {
            return form.answer();
        }
        var endpoint = form.endpoint();
        if (!"yes".equals(confirmed)) {
            return confirmPage(mode, endpoint, "rotate", key, model);
        }
        Optional<String> confirm = reauth.confirmInLive(user, mode, "Rotating a live signing secret", request,
                response, model);
        if (confirm.isPresent()) {
            return confirm.get();
        }
        StoredResponse answer = actions.rotateSecret(user.merchantId(), Mode.fromWire(mode), id, key, request);
        if (answer.status() >= 300) {
            return refused(user, mode, endpoint, answer, response, model);
        }
        JsonNode rotated = json.readTree(answer.body());
        if (!answer.replayed()) {
            Map<String, Object> after = new LinkedHashMap<>();
            after.put("previous_secret_expires_at", text(rotated, "previous_secret_expires_at"));
            audit.append(new AuditLog.Entry(user.merchantId(), user.userId(), user.email(),
                    "webhook_endpoint.secret_rotated", id, mode, null, json.writeValueAsString(after)), request);
        }
        return secretPage(mode, id, rotated, true, model);
    }

    /** Sends a {@code webhook_endpoint.test} event to this endpoint alone; 303 back to it. */
    @PostMapping("/dashboard/{mode:test|live}/developers/webhooks/{id}/test")
    String sendTest(@PathVariable String mode, @PathVariable String id,
                    @RequestParam(name = "idempotency_key", required = false) String key,
                    @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                    HttpServletResponse response, Model model) {
        ActionForm form = actionForm(user, mode, id, key, csrf, response, model);
        if (form.answer() != null) {
            return form.answer();
        }
        var endpoint = form.endpoint();
        StoredResponse answer = actions.sendTest(user.merchantId(), Mode.fromWire(mode), id, key, request);
        if (answer.status() >= 300) {
            return refused(user, mode, endpoint, answer, response, model);
        }
        if (!answer.replayed()) {
            String eventId = json.readTree(answer.body()).get("id").stringValue();
            audit.append(new AuditLog.Entry(user.merchantId(), user.userId(), user.email(),
                    "webhook_endpoint.test_sent", id, mode, null,
                    json.writeValueAsString(Map.of("event_id", eventId, "type", EventTypes.WEBHOOK_TEST))), request);
        }
        return seeOther(mode, id, "test", response);
    }

    /**
     * Resends an event to this endpoint as {@code POST /events/{id}/redeliver} does, whatever became of it before (a
     * delivered one too): the delivery is queued again and its next attempt is listed as a new one; 303 back.
     */
    @PostMapping("/dashboard/{mode:test|live}/developers/webhooks/{id}/resend")
    String resend(@PathVariable String mode, @PathVariable String id,
                  @RequestParam(name = "event_id", required = false) String eventId,
                  @RequestParam(name = "idempotency_key", required = false) String key,
                  @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                  HttpServletResponse response, Model model) {
        ActionForm form = actionForm(user, mode, id, key, csrf, response, model);
        if (form.answer() != null) {
            return form.answer();
        }
        var endpoint = form.endpoint();
        if (eventId == null || !EVENT_ID.matcher(eventId).matches()) {
            return notFound("event", eventId == null ? "" : eventId, response, model);
        }
        StoredResponse answer = actions.resend(user.merchantId(), Mode.fromWire(mode), eventId, id, key, request);
        if (answer.status() == HttpStatus.NOT_FOUND.value()) {
            return notFound("event", eventId, response, model); // another merchant's or mode's event
        }
        if (answer.status() >= 300) {
            return refused(user, mode, endpoint, answer, response, model);
        }
        if (!answer.replayed()) {
            JsonNode delivery = json.readTree(answer.body()).get("deliveries").get(0);
            String deliveryId = delivery.get("id").stringValue();
            audit.append(new AuditLog.Entry(user.merchantId(), user.userId(), user.email(), "webhook_delivery.resent",
                    deliveryId, mode, null, json.writeValueAsString(Map.of("event_id", eventId,
                    "webhook_endpoint_id", id, "delivery_id", deliveryId))), request);
        }
        return seeOther(mode, id, "resent", response);
    }

    /** An action's form: its endpoint (the merchant's, in the URL's mode) and its key, or the page to answer. */
    private record ActionForm(WebhookDeliveryLog.Endpoint endpoint, String answer) {
    }

    /**
     * The endpoint an action's form is for when it is the signed-in merchant's and the form carries its key;
     * otherwise the page that answers instead (not found; a form without its key, 400).
     */
    private ActionForm actionForm(SignedInUser user, String mode, String id, String key, CsrfToken csrf,
                                  HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "developers", csrf, merchants);
        var endpoint = find(user, mode, id);
        if (endpoint.isEmpty()) {
            return new ActionForm(null, notFound("webhook endpoint", id, response, model));
        }
        if (key == null || !KEY.matcher(key).matches()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            return new ActionForm(null, endpointPage(user, mode, endpoint.get(), null, EXPIRED_FORM, model));
        }
        return new ActionForm(endpoint.get(), null);
    }

    private Optional<WebhookDeliveryLog.Endpoint> find(SignedInUser user, String mode, String id) {
        if (!ENDPOINT_ID.matcher(id).matches()) {
            return Optional.empty();
        }
        return log.endpoint(Caller.system(user.merchantId(), Mode.fromWire(mode)), id);
    }

    /** Whether this user may act here: owners and developers, in live mode owners (as DashboardSecurity enforces). */
    static boolean acts(SignedInUser user, String mode) {
        return user.role() == Role.OWNER || (user.role() == Role.DEVELOPER && mode.equals("test"));
    }

    private String listPage(SignedInUser user, String mode, NewEndpoint form, Map<String, String> errors,
                            String error, Model model) {
        Caller caller = Caller.system(user.merchantId(), Mode.fromWire(mode));
        model.addAttribute("endpoints", log.endpoints(caller).stream().map(ListedEndpoint::of).toList());
        model.addAttribute("canAct", acts(user, mode));
        model.addAttribute("form", form);
        model.addAttribute("errors", errors);
        model.addAttribute("error", error);
        model.addAttribute("eventTypes", EventTypes.ALL);
        model.addAttribute("createKey", UUID.randomUUID().toString());
        return "dashboard/webhooks";
    }

    private String endpointPage(SignedInUser user, String mode, WebhookDeliveryLog.Endpoint endpoint, String cursor,
                                String error, Model model) {
        Caller caller = Caller.system(user.merchantId(), Mode.fromWire(mode));
        var page = log.attempts(caller, endpoint.id(), cursor, PAGE_SIZE);
        model.addAttribute("endpoint", ListedEndpoint.of(endpoint));
        model.addAttribute("error", error);
        model.addAttribute("canAct", acts(user, mode));
        model.addAttribute("attempts", page.rows().stream().map(ListedAttempt::of).toList());
        model.addAttribute("waiting", log.waiting(caller, endpoint.id(), WAITING_SHOWN).stream()
                .map(w -> new WaitingDelivery(w.eventId(), SECONDS.format(w.nextAttemptAt().atOffset(ZoneOffset.UTC))))
                .toList());
        String self = "/dashboard/" + mode + "/developers/webhooks/" + endpoint.id();
        model.addAttribute("nextUrl", page.nextCursor() == null ? null : self + "?cursor=" + page.nextCursor());
        model.addAttribute("firstUrl", cursor == null ? null : self);
        // Each form its own key: sent twice (a double click, a reload), it acts once.
        model.addAttribute("toggleKey", UUID.randomUUID().toString());
        model.addAttribute("rotateKey", UUID.randomUUID().toString());
        model.addAttribute("testKey", UUID.randomUUID().toString());
        return "dashboard/webhook";
    }

    private String confirmPage(String mode, WebhookDeliveryLog.Endpoint endpoint, String action, String key,
                               Model model) {
        model.addAttribute("endpoint", ListedEndpoint.of(endpoint));
        model.addAttribute("action", action);
        model.addAttribute("key", key);
        return "dashboard/webhook-confirm";
    }

    private String secretPage(String mode, String id, JsonNode answered, boolean rotated, Model model) {
        model.addAttribute("endpointId", id);
        model.addAttribute("url", text(answered, "url"));
        model.addAttribute("secret", text(answered, "secret"));
        model.addAttribute("rotated", rotated);
        String overlap = text(answered, "previous_secret_expires_at");
        model.addAttribute("previousUntil", overlap == null ? null
                : HomeSummary.moment(Instant.parse(overlap)));
        return "dashboard/webhook-secret";
    }

    private String refused(SignedInUser user, String mode, WebhookDeliveryLog.Endpoint endpoint, StoredResponse answer,
                           HttpServletResponse response, Model model) {
        if (answer.status() == HttpStatus.NOT_FOUND.value()) {
            return notFound("webhook endpoint", endpoint.id(), response, model); // deleted meanwhile
        }
        response.setStatus(answer.status());
        var now = find(user, mode, endpoint.id()).orElse(endpoint);
        return endpointPage(user, mode, now, null, detail(answer), model);
    }

    static String notFound(String what, String id, HttpServletResponse response, Model model) {
        response.setStatus(HttpStatus.NOT_FOUND.value());
        model.addAttribute("what", what);
        model.addAttribute("id", id);
        return "dashboard/developers-not-found";
    }

    private static String seeOther(String mode, String id, String done, HttpServletResponse response) {
        response.setStatus(HttpStatus.SEE_OTHER.value());
        response.setHeader(HttpHeaders.LOCATION, "/dashboard/" + mode + "/developers/webhooks/" + id + "?done=" + done);
        return null;
    }

    /** The problem's words, as the API said them. */
    private String detail(StoredResponse answer) {
        try {
            JsonNode detail = json.readTree(answer.body()).get("detail");
            return detail == null ? "The endpoint could not be changed." : detail.stringValue();
        } catch (RuntimeException e) {
            return "The endpoint could not be changed.";
        }
    }

    /** The API's field errors by form field, the first of each; {@code enabled_events[3]} is the types' field. */
    private static Map<String, String> byField(List<FieldError> errors) {
        Map<String, String> byField = new LinkedHashMap<>();
        for (FieldError error : errors) {
            String field = error.field().startsWith("enabled_events[") ? "enabled_events" : error.field();
            String message = error.field().startsWith("enabled_events[")
                    ? error.field().substring("enabled_events".length()) + " " + error.message() : error.message();
            byField.putIfAbsent(field, message);
        }
        return byField;
    }

    private String state(JsonNode endpoint) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("url", text(endpoint, "url"));
        List<String> events = new ArrayList<>();
        endpoint.get("enabled_events").forEach(e -> events.add(e.stringValue()));
        state.put("enabled_events", events);
        state.put("status", text(endpoint, "status"));
        return json.writeValueAsString(state);
    }

    private String status(boolean enabled) {
        return json.writeValueAsString(Map.of("status", enabled ? "enabled" : "disabled"));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.stringValue();
    }

    /** The add form as it was sent, to show it again with its errors. */
    public record NewEndpoint(String url, boolean all, List<String> types, String description) {
        public boolean chosen(String type) {
            return types.contains(type);
        }
    }

    /** An endpoint as the list and its page show it. */
    public record ListedEndpoint(String id, String url, String description, boolean enabled, String state,
                                 String disabledWhy, String events, boolean allEvents, String created,
                                 String previousSecretUntil) {
        static ListedEndpoint of(WebhookDeliveryLog.Endpoint e) {
            boolean all = e.enabledEvents().contains(EventTypes.WILDCARD);
            String why = e.enabled() ? null : "endpoint_gone".equals(e.disabledReason())
                    ? "It answered 410 Gone." : "Disabled by your team.";
            return new ListedEndpoint(e.id(), e.url(), e.description(), e.enabled(),
                    e.enabled() ? "Enabled" : "Disabled", why,
                    all ? "All events" : String.join(", ", e.enabledEvents()), all,
                    HomeSummary.moment(e.createdAt()),
                    e.previousSecretExpiresAt() == null ? null : HomeSummary.moment(e.previousSecretExpiresAt()));
        }
    }

    /** One attempt as the endpoint's page lists it; {@code excerpt} is shown escaped (th:text). */
    public record ListedAttempt(String id, String eventId, String eventType, int attempt, boolean succeeded,
                                String outcome, String response, String latency, String day, String time,
                                String excerpt,
                                boolean excerptCut, String fullExcerpt, String resendKey) {
        static ListedAttempt of(WebhookDeliveryLog.Attempt a) {
            String response = a.responseStatus() != null ? "HTTP " + a.responseStatus()
                    : a.error() == null ? "No answer" : a.error().replace('_', ' ');
            String full = a.responseExcerpt();
            boolean cut = full != null && full.length() > EXCERPT_SHOWN;
            String shown = full == null ? null : cut ? full.substring(0, EXCERPT_SHOWN) + "…" : full;
            return new ListedAttempt(a.id(), a.eventId(), a.eventType(), a.attempt(), a.succeeded(),
                    a.succeeded() ? "Delivered" : "Failed", response, a.durationMs() + " ms",
                    DAY.format(a.createdAt().atOffset(ZoneOffset.UTC)),
                    CLOCK.format(a.createdAt().atOffset(ZoneOffset.UTC)), shown, cut, full,
                    UUID.randomUUID().toString());
        }
    }

    /** A delivery waiting for its next attempt. */
    public record WaitingDelivery(String eventId, String due) {
    }
}
