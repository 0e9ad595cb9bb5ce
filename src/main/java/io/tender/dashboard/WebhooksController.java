package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.api.ApiException;
import io.tender.api.FieldError;
import io.tender.auth.Caller;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import io.tender.api.Rejections;
import io.tender.event.EventTypes;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.Outcome;
import io.tender.webhook.RedeliveryView;
import io.tender.webhook.WebhookDeliveryLog;
import io.tender.webhook.WebhookEndpointView;
import io.tender.webhook.WebhookService;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
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
 * secret, send a test event, resend any attempt's event, a delivered one too). Every action runs the module's own flow
 * ({@link WebhookService}, with the API's checks) under the form's Idempotency-Key ({@link FormActions}), goes into the
 * audit log, and a refusal shows the rule's words. A secret is shown once, on the page that answers the create or the
 * rotation. Viewers read; POSTs need an owner or a developer, in live mode an owner ({@code DashboardSecurity}).
 */
@Hidden
@Controller
record WebhooksController(WebhookDeliveryLog log, WebhookService webhooks, FormActions actions, Merchants merchants,
                          AuditLog audit, Rejections rejections, JsonMapper json, Reauthentication reauth) {

    /** Attempts on one page of an endpoint's deliveries. */
    static final int PAGE_SIZE = 25;
    /** Waiting deliveries an endpoint's page lists at most. */
    private static final int WAITING_SHOWN = 20;
    private static final Pattern ENDPOINT_ID = Pattern.compile("^we_[a-f0-9]{24}$");
    private static final Pattern EVENT_ID = Pattern.compile("^evt_[a-f0-9]{24}$");
    /** What a resend form without an event id is refused with: the event's not-found page. */
    private static final String NO_SUCH_EVENT = "No such event.";
    static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("d MMM yyyy, HH:mm:ss 'UTC'",
            Locale.ENGLISH);

    @GetMapping("/dashboard/{mode:test|live}/developers/webhooks")
    String list(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, Model model) {
        Chrome.add(model, user, mode, "developers", csrf, merchants);
        return listPage(user, mode, new WebhookRows.NewEndpoint("", true, List.of(), ""), Map.of(), null, model);
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
        var typed = new WebhookRows.NewEndpoint(url == null ? "" : url.trim(), all, chosen, description == null ? "" : description);
        if (key == null || !FormActions.KEY.matcher(key).matches()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            return listPage(user, mode, typed, Map.of(), FormActions.EXPIRED, model);
        }
        Optional<String> confirm = reauth.confirmInLive(user, mode, "Adding a live webhook endpoint", request,
                response, model);
        if (confirm.isPresent()) {
            return confirm.get();
        }
        var form = new FormActions.Form(key, null, user, mode, request, response);
        Outcome<WebhookEndpointView> created;
        try {
            created = webhooks.create(form.caller(), actions.keyed(form), typed.url(),
                    all ? List.of(EventTypes.WILDCARD) : chosen,
                    typed.description().isBlank() ? null : typed.description().trim()).outcome();
        } catch (ApiException refused) {
            response.setStatus(refused.status());
            return listPage(user, mode, typed, byField(refused.errors()), null, model);
        }
        return switch (created) {
            case Outcome.Done<WebhookEndpointView>(WebhookEndpointView endpoint) -> {
                audit.append(form.audit("webhook_endpoint.created", endpoint.id(), null, state(endpoint)), request);
                yield secretPage(endpoint, false, model);
            }
            case Outcome.Replayed<WebhookEndpointView> replayed when replayed.done() && replayed.view() != null ->
                    secretPage(replayed.view(), false, model);
            case Outcome.Replayed<WebhookEndpointView> replayed -> {
                response.setStatus(replayed.done() ? HttpStatus.OK.value() : replayed.status());
                yield listPage(user, mode, typed, Map.of(),
                        replayed.detail() != null ? replayed.detail() : FormActions.SENT_BEFORE, model);
            }
            case Outcome.Refused<WebhookEndpointView>(var rejection) -> {
                ApiException problem = rejections.problem(rejection);
                response.setStatus(problem.status());
                yield listPage(user, mode, typed, Map.of(), problem.getMessage(), model);
            }
        };
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
        boolean enable = action.equals("enable");
        return act(new FormActions.Form(key, confirmed, user, mode, request, response), id, csrf, model,
                endpoint -> new EndpointAction<WebhookEndpointView>(endpoint, enable ? "enabled" : "disabled", model) {
                    @Override
                    public String confirmation() {
                        return enable ? null : confirmPage(endpoint, action, key, model);
                    }

                    @Override
                    public Outcome<WebhookEndpointView> act(KeyedRequest keyed) {
                        return webhooks.setEnabled(form.caller(), keyed, id, enable).outcome();
                    }

                    @Override
                    public AuditLog.Entry audited(WebhookEndpointView view) {
                        return endpoint.enabled() == enable ? null : form.audit("webhook_endpoint." + done, id,
                                status(endpoint.enabled()), status(enable));
                    }
                });
    }

    /** Rotates the signing secret after a confirmation, then shows the new one this once. */
    @PostMapping("/dashboard/{mode:test|live}/developers/webhooks/{id}/rotate")
    String rotate(@PathVariable String mode, @PathVariable String id,
                  @RequestParam(name = "idempotency_key", required = false) String key,
                  @RequestParam(name = "confirmed", required = false) String confirmed,
                  @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                  HttpServletResponse response, Model model) {
        return act(new FormActions.Form(key, confirmed, user, mode, request, response), id, csrf, model,
                endpoint -> new EndpointAction<WebhookEndpointView>(endpoint, "rotated", model) {
                    @Override
                    public String confirmation() {
                        return confirmPage(endpoint, "rotate", key, model);
                    }

                    @Override
                    public Optional<String> identity() {
                        return reauth.confirmInLive(user, mode, "Rotating a live signing secret", request, response,
                                model);
                    }

                    @Override
                    public Outcome<WebhookEndpointView> act(KeyedRequest keyed) {
                        return webhooks.rotateSecret(form.caller(), keyed, id).outcome();
                    }

                    @Override
                    public AuditLog.Entry audited(WebhookEndpointView view) {
                        Map<String, Object> after = new LinkedHashMap<>();
                        after.put("previous_secret_expires_at", view.previousSecretExpiresAt());
                        return form.audit("webhook_endpoint.secret_rotated", id, null,
                                json.writeValueAsString(after));
                    }

                    @Override
                    public String done(WebhookEndpointView view) {
                        return view == null ? super.done(null) : secretPage(view, true, model);
                    }
                });
    }

    /** Sends a {@code webhook_endpoint.test} event to this endpoint alone; 303 back to it. */
    @PostMapping("/dashboard/{mode:test|live}/developers/webhooks/{id}/test")
    String sendTest(@PathVariable String mode, @PathVariable String id,
                    @RequestParam(name = "idempotency_key", required = false) String key,
                    @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                    HttpServletResponse response, Model model) {
        return act(new FormActions.Form(key, null, user, mode, request, response), id, csrf, model,
                endpoint -> new EndpointAction<WebhookService.TestSent>(endpoint, "test", model) {
                    @Override
                    public Outcome<WebhookService.TestSent> act(KeyedRequest keyed) {
                        return webhooks.sendTest(form.caller(), keyed, id).outcome();
                    }

                    @Override
                    public AuditLog.Entry audited(WebhookService.TestSent sent) {
                        return form.audit("webhook_endpoint.test_sent", id, null, json.writeValueAsString(
                                Map.of("event_id", sent.id(), "type", EventTypes.WEBHOOK_TEST)));
                    }
                });
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
        return act(new FormActions.Form(key, null, user, mode, request, response), id, csrf, model,
                endpoint -> new EndpointAction<RedeliveryView>(endpoint, "resent", model) {
                    @Override
                    public String badInput() {
                        return eventId == null || !EVENT_ID.matcher(eventId).matches() ? NO_SUCH_EVENT : null;
                    }

                    @Override
                    public String page(String error) {
                        // Not an event id at all: the event is not found, as another merchant's would not be.
                        return error == NO_SUCH_EVENT ? notFound("event", eventId == null ? "" : eventId, response,
                                model) : super.page(error);
                    }

                    @Override
                    public Outcome<RedeliveryView> act(KeyedRequest keyed) {
                        return webhooks.resend(form.caller(), keyed, eventId, id).outcome();
                    }

                    @Override
                    public AuditLog.Entry audited(RedeliveryView redelivery) {
                        String deliveryId = redelivery.deliveries().getFirst().id();
                        return form.audit("webhook_delivery.resent", deliveryId, null, json.writeValueAsString(
                                Map.of("event_id", eventId, "webhook_endpoint_id", id, "delivery_id", deliveryId)));
                    }

                    @Override
                    public String refused(ApiException problem) {
                        return problem.status() == HttpStatus.NOT_FOUND.value()
                                ? notFound("event", eventId, response, model) // another merchant's or mode's event
                                : super.refused(problem);
                    }
                });
    }

    /**
     * An action on one of the merchant's endpoints in the URL's mode: not found otherwise; its steps
     * ({@link FormActions}) made for the endpoint found.
     */
    private <V> String act(FormActions.Form form, String id, CsrfToken csrf, Model model,
                           java.util.function.Function<WebhookDeliveryLog.Endpoint, EndpointAction<V>> steps) {
        Chrome.add(model, form.user(), form.mode(), "developers", csrf, merchants);
        var endpoint = find(form.user(), form.mode(), id);
        if (endpoint.isEmpty()) {
            return notFound("webhook endpoint", id, form.response(), model);
        }
        EndpointAction<V> action = steps.apply(endpoint.get());
        action.form = form;
        return actions.run(form, action);
    }

    /**
     * An action of an endpoint's page: the page shows the endpoint as it now is with the refusal's words (a deleted
     * one: not found); done, 303 back to it saying {@code done}.
     */
    private abstract class EndpointAction<V> implements FormActions.Steps<V> {
        final WebhookDeliveryLog.Endpoint endpoint;
        final String done;
        private final Model model;
        FormActions.Form form;

        EndpointAction(WebhookDeliveryLog.Endpoint endpoint, String done, Model model) {
            this.endpoint = endpoint;
            this.done = done;
            this.model = model;
        }

        @Override
        public String page(String error) {
            var now = find(form.user(), form.mode(), endpoint.id()).orElse(endpoint);
            return endpointPage(form.user(), form.mode(), now, null, error, model);
        }

        @Override
        public String refused(ApiException problem) {
            return problem.status() == HttpStatus.NOT_FOUND.value()
                    ? notFound("webhook endpoint", endpoint.id(), form.response(), model) // deleted meanwhile
                    : page(problem.getMessage());
        }

        @Override
        public String done(V view) {
            return FormActions.seeOther(form.response(),
                    "/dashboard/" + form.mode() + "/developers/webhooks/" + endpoint.id() + "?done=" + done);
        }
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

    private String listPage(SignedInUser user, String mode, WebhookRows.NewEndpoint form, Map<String, String> errors,
                            String error, Model model) {
        Caller caller = Caller.system(user.merchantId(), Mode.fromWire(mode));
        model.addAttribute("endpoints", log.endpoints(caller).stream().map(WebhookRows.ListedEndpoint::of).toList());
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
        model.addAttribute("endpoint", WebhookRows.ListedEndpoint.of(endpoint));
        model.addAttribute("error", error);
        model.addAttribute("canAct", acts(user, mode));
        model.addAttribute("attempts", page.rows().stream().map(WebhookRows.ListedAttempt::of).toList());
        model.addAttribute("waiting", log.waiting(caller, endpoint.id(), WAITING_SHOWN).stream()
                .map(w -> new WebhookRows.WaitingDelivery(w.eventId(), SECONDS.format(w.nextAttemptAt().atOffset(ZoneOffset.UTC))))
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

    private String confirmPage(WebhookDeliveryLog.Endpoint endpoint, String action, String key, Model model) {
        model.addAttribute("endpoint", WebhookRows.ListedEndpoint.of(endpoint));
        model.addAttribute("action", action);
        model.addAttribute("key", key);
        return "dashboard/webhook-confirm";
    }

    private String secretPage(WebhookEndpointView endpoint, boolean rotated, Model model) {
        model.addAttribute("endpointId", endpoint.id());
        model.addAttribute("url", endpoint.url());
        model.addAttribute("secret", endpoint.secret());
        model.addAttribute("rotated", rotated);
        String overlap = endpoint.previousSecretExpiresAt();
        model.addAttribute("previousUntil", overlap == null ? null : HomeSummary.moment(Instant.parse(overlap)));
        return "dashboard/webhook-secret";
    }

    /** The 404 page of a webhook endpoint or event that is not the merchant's in this mode, with both lists' links. */
    static String notFound(String what, String id, HttpServletResponse response, Model model) {
        String developers = "/dashboard/" + model.getAttribute("mode") + "/developers";
        model.addAttribute("otherUrl", developers + "/events");
        model.addAttribute("otherName", "The event log");
        return CollectPages.notFound(what, id, developers + "/webhooks", "All webhook endpoints", response, model);
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

    private String state(WebhookEndpointView endpoint) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("url", endpoint.url());
        state.put("enabled_events", endpoint.enabledEvents());
        state.put("status", endpoint.status());
        return json.writeValueAsString(state);
    }

    private String status(boolean enabled) {
        return json.writeValueAsString(Map.of("status", enabled ? "enabled" : "disabled"));
    }
}
