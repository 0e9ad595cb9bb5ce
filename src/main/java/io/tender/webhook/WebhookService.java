package io.tender.webhook;

import io.tender.api.NotFound;
import io.tender.api.Ids;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.api.Timestamps;
import io.tender.apiversion.ApiVersion;
import io.tender.apiversion.PinnedVersions;
import io.tender.auth.Caller;
import io.tender.event.EventTypes;
import io.tender.idempotency.Answer;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.outbox.EventLog;
import io.tender.outbox.Outbox;
import io.tender.outbox.OutboxEvent;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The webhook endpoints API and redelivery. Writes run inside the transaction that
 * {@link io.tender.idempotency.IdempotentRequests} opens, so each one commits with its Idempotency-Key. The dashboard's
 * Developers pages make the same changes through the public methods, each under its form's key, with the API's checks
 * and rules, answering a typed {@link Answer}.
 */
@Service
public record WebhookService(WebhookEndpoints endpoints, WebhookDeliveries deliveries, EventLog events,
                             WebhookDispatcher dispatcher, WebhookSettings settings, Outbox outbox, JsonMapper json,
                             WebhookTargets targets, IdempotentRequests idempotent,
                             PinnedVersions pinned) {

    /**
     * Creates an endpoint whose events are rendered in {@code apiVersion}, unless the merchant already has
     * {@code tender.webhooks.max-endpoints} in this mode (422).
     */
    WebhookEndpointView create(Caller caller, EndpointRequest request, ApiVersion apiVersion) {
        if (endpoints.countLocked(caller.merchantId(), caller.mode()) >= settings.maxEndpoints()) {
            throw new WebhookRejection.TooManyEndpoints(settings.maxEndpoints()).thrown();
        }
        var endpoint = WebhookEndpoint.create(Ids.newId("we_"), caller.merchantId(), caller.mode(), request,
                apiVersion, Timestamps.now());
        endpoints.insert(endpoint);
        return WebhookEndpointView.of(endpoint, true);
    }

    WebhookEndpointView get(Caller caller, String id) {
        return WebhookEndpointView.of(endpoints.get(caller, id), false);
    }

    ListPage<WebhookEndpointView> list(Caller caller, ListQuery query) {
        return ListPage.of(endpoints.list(caller, query), query.limit(), WebhookEndpoint::id,
                e -> WebhookEndpointView.of(e, false));
    }

    WebhookEndpointView update(Caller caller, String id, EndpointRequest changes) {
        var endpoint = endpoints.getForUpdate(caller, id).changed(changes, Timestamps.now());
        endpoints.update(endpoint);
        dispatcher.wakeAfterCommit(); // re-enabled: its waiting deliveries are due
        return WebhookEndpointView.of(endpoint, false);
    }

    WebhookEndpointView rotateSecret(Caller caller, String id) {
        var endpoint = endpoints.getForUpdate(caller, id).rotated(Timestamps.now());
        endpoints.update(endpoint);
        return WebhookEndpointView.of(endpoint, true);
    }

    WebhookEndpointView.Deleted delete(Caller caller, String id) {
        if (!endpoints.delete(caller, id)) {
            throw new NotFound("webhook endpoint").thrown();
        }
        return new WebhookEndpointView.Deleted(id, true);
    }

    ListPage<DeliveryAttemptView> attempts(Caller caller, String endpointId, ListQuery query, String eventId,
                                           String status) {
        endpoints.get(caller, endpointId);
        return ListPage.of(deliveries.attempts(endpointId, query, eventId, status), query.limit(),
                WebhookDeliveries.Attempt::id, DeliveryAttemptView::of);
    }

    /**
     * Queues the event again for one endpoint, or for every enabled endpoint subscribed to its type. Earlier
     * attempts stay listed; the retry schedule starts afresh.
     */
    RedeliveryView redeliver(Caller caller, String eventId, String endpointId) {
        OutboxEvent event = events.get(caller, eventId);
        List<String> targets;
        if (endpointId != null) {
            WebhookEndpoint endpoint = endpoints.get(caller, endpointId);
            endpoint.requireEnabled();
            targets = List.of(endpoint.id());
        } else {
            targets = endpoints.subscribedTo(caller.merchantId(), caller.mode(), event.type());
            if (targets.isEmpty()) {
                throw new WebhookRejection.NoSubscriber(event.type()).thrown();
            }
        }
        List<RedeliveryView.DeliveryView> queued = new ArrayList<>();
        for (String target : targets) {
            var delivery = deliveries.redeliver(target, event);
            queued.add(new RedeliveryView.DeliveryView(delivery.id(), delivery.endpointId(), delivery.status(),
                    Timestamps.format(delivery.nextAttemptAt())));
        }
        dispatcher.wakeAfterCommit();
        return new RedeliveryView(event.id(), queued);
    }

    /** What a test event became: the event, queued for the one endpoint it tests. */
    public record TestSent(String id, String type, String webhookEndpointId) {
    }

    /**
     * Appends a {@link EventTypes#WEBHOOK_TEST} event about the endpoint to the outbox, so the relay and the
     * dispatcher deliver it as any other event (signed, retried, listed), to that endpoint alone
     * ({@link WebhookFanOut}). An endpoint that is disabled is refused (422), as a redelivery to it is.
     */
    TestSent sendTest(Caller caller, String endpointId) {
        WebhookEndpoint endpoint = endpoints.getForUpdate(caller, endpointId);
        endpoint.requireEnabled();
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("webhook_endpoint_id", endpoint.id());
        data.put("test", true);
        data.put("message", "A test event, sent on request to this endpoint only. It is about no payment and "
                + "changes nothing.");
        String eventId = outbox.append(caller, new Outbox.Event("webhook_endpoint", endpoint.id(),
                EventTypes.WEBHOOK_TEST, Timestamps.now(), json.writeValueAsBytes(data)));
        return new TestSent(eventId, EventTypes.WEBHOOK_TEST, endpoint.id());
    }

    // ---- the dashboard's forms, each under its form's key ------------------------------------------------------

    /**
     * Adds an endpoint of {@code url} for {@code events} ({@code description} may be null), as {@code POST
     * /webhook_endpoints} would: a URL or event type the API refuses throws its 400 naming the field, before anything
     * is done. The view holds the secret, shown this once.
     */
    public Answer<WebhookEndpointView> create(Caller caller, KeyedRequest form, String url, List<String> events,
                                              String description) {
        EndpointRequest endpoint = EndpointRequest.of(url, events, description, caller.mode(), targets);
        return idempotent.answer(caller, form, 201, WebhookEndpointView.class, () -> create(caller, endpoint, pinned.of(caller.merchantId())));
    }

    /** Enables or disables the endpoint, as {@code PATCH {"status": …}} does (re-enabled, its waiting deliveries resume). */
    public Answer<WebhookEndpointView> setEnabled(Caller caller, KeyedRequest form, String endpointId,
                                                  boolean enabled) {
        EndpointRequest changes = EndpointRequest.ofStatus(enabled, caller.mode(), targets);
        return idempotent.answer(caller, form, 200, WebhookEndpointView.class,
                () -> update(caller, endpointId, changes));
    }

    /** A new secret, in the view this once; the previous one keeps signing alongside it for 24 hours. */
    public Answer<WebhookEndpointView> rotateSecret(Caller caller, KeyedRequest form, String endpointId) {
        return idempotent.answer(caller, form, 200, WebhookEndpointView.class, () -> rotateSecret(caller, endpointId));
    }

    /** Sends a {@code webhook_endpoint.test} event to this endpoint alone ({@link #sendTest(Caller, String)}). */
    public Answer<TestSent> sendTest(Caller caller, KeyedRequest form, String endpointId) {
        return idempotent.answer(caller, form, 201, TestSent.class, () -> sendTest(caller, endpointId));
    }

    /**
     * Queues the event again for this endpoint, now and with a fresh retry schedule, whatever became of it before (a
     * delivered one too), as {@code POST /events/{id}/redeliver} does.
     */
    public Answer<RedeliveryView> resend(Caller caller, KeyedRequest form, String eventId, String endpointId) {
        return idempotent.answer(caller, form, 202, RedeliveryView.class,
                () -> redeliver(caller, eventId, endpointId));
    }
}
