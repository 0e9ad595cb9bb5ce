package io.tender.webhook;

import io.tender.apiversion.PinnedVersions;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.StoredResponse;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Service;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * The webhook actions of the dashboard's Developers pages (decisions §11): add an endpoint, disable or enable it,
 * rotate its secret, resend an event to it, each through the very flow the API's {@code POST /webhook_endpoints},
 * {@code PATCH /webhook_endpoints/{id}}, {@code …/rotate_secret} and {@code POST /events/{id}/redeliver} run, under
 * an Idempotency-Key the form carries, bound to the API request it stands for; and send a test event, which the API
 * has no request for. Each answers as the API would ({@link StoredResponse}: its status and JSON, or the problem). A
 * request the API would refuse with a 400 (a URL it does not take, say) throws that {@link io.tender.api.ApiException}
 * with its field errors, before anything is done.
 */
@Service
public class WebhookActions {

    private final WebhookService service;
    private final WebhookTargets targets;
    private final IdempotentRequests idempotent;
    private final PinnedVersions pinned;

    WebhookActions(WebhookService service, WebhookTargets targets, IdempotentRequests idempotent,
                   PinnedVersions pinned) {
        this.service = service;
        this.targets = targets;
        this.idempotent = idempotent;
        this.pinned = pinned;
    }

    /**
     * Adds an endpoint; the answer holds its secret, shown this once. {@code description} may be null. Its events are
     * rendered in the merchant's pinned API version, which its integration reads (the dashboard itself has none).
     */
    public StoredResponse create(String merchantId, Mode mode, String key, String url, List<String> enabledEvents,
                                 String description, HttpServletRequest page) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("url", url);
        var events = body.putArray("enabled_events");
        enabledEvents.forEach(events::add);
        if (description != null) {
            body.put("description", description);
        }
        EndpointRequest endpoint = EndpointRequest.forCreate(body, mode, targets);
        Caller caller = Caller.system(merchantId, mode);
        return idempotent.execute(caller, idempotent.keyed(key, "POST", "/webhook_endpoints", body, page),
                () -> new IdempotentRequests.Result(201, service.create(caller, endpoint, pinned.of(merchantId))));
    }

    /** Enables or disables the endpoint, as {@code PATCH {"status": …}} does (re-enabled, its waiting deliveries resume). */
    public StoredResponse setEnabled(String merchantId, Mode mode, String endpointId, String key, boolean enabled,
                                     HttpServletRequest page) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("status", enabled ? "enabled" : "disabled");
        EndpointRequest changes = EndpointRequest.forUpdate(body, mode, targets);
        Caller caller = Caller.system(merchantId, mode);
        return idempotent.execute(caller, idempotent.keyed(key, "PATCH", "/webhook_endpoints/" + endpointId, body,
                page), () -> new IdempotentRequests.Result(200, service.update(caller, endpointId, changes)));
    }

    /** A new secret, in the answer this once; the previous one keeps signing alongside it for 24 hours. */
    public StoredResponse rotateSecret(String merchantId, Mode mode, String endpointId, String key,
                                       HttpServletRequest page) {
        Caller caller = Caller.system(merchantId, mode);
        return idempotent.execute(caller, idempotent.keyed(key, "POST", "/webhook_endpoints/" + endpointId
                        + "/rotate_secret", JsonNodeFactory.instance.objectNode(), page),
                () -> new IdempotentRequests.Result(200, service.rotateSecret(caller, endpointId)));
    }

    /**
     * Sends a {@code webhook_endpoint.test} event to this endpoint alone, through the outbox and the dispatcher like
     * any event; the answer is {@code {id, type, webhook_endpoint_id}} with the event's id.
     */
    public StoredResponse sendTest(String merchantId, Mode mode, String endpointId, String key,
                                   HttpServletRequest page) {
        Caller caller = Caller.system(merchantId, mode);
        return idempotent.execute(caller, idempotent.keyed(key, "POST", "/webhook_endpoints/" + endpointId
                        + "/test_events", JsonNodeFactory.instance.objectNode(), page),
                () -> new IdempotentRequests.Result(201, service.sendTest(caller, endpointId)));
    }

    /**
     * Queues the event again for this endpoint, now and with a fresh retry schedule, whatever became of it before (a
     * delivered one too): the next attempt is listed as a new one. Answers as {@code POST /events/{id}/redeliver}.
     */
    public StoredResponse resend(String merchantId, Mode mode, String eventId, String endpointId, String key,
                                 HttpServletRequest page) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("webhook_endpoint", endpointId);
        Caller caller = Caller.system(merchantId, mode);
        return idempotent.execute(caller, idempotent.keyed(key, "POST", "/events/" + eventId + "/redeliver", body,
                page), () -> new IdempotentRequests.Result(202, service.redeliver(caller, eventId, endpointId)));
    }
}
