package io.tender.webhook;

import io.tender.event.EventTypes;
import io.tender.outbox.OutboxEvent;
import io.tender.outbox.RelayChannel;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The relay channel for webhooks: queues a delivery of each event for every enabled endpoint of the event's
 * merchant and mode that subscribes to its type ({@link EventTypes#WEBHOOK_TEST} only for the endpoint tested). It writes in the relay's transaction, so an event is queued
 * exactly once per endpoint however often the relay hands it over.
 */
@Component
record WebhookFanOut(WebhookEndpoints endpoints, WebhookDeliveries deliveries, WebhookDispatcher dispatcher)
        implements RelayChannel {
    @Override
    public String name() {
        return "webhooks";
    }

    @Override
    public void deliver(List<OutboxEvent> events) {
        boolean queued = false;
        // One lookup per merchant, mode and event type in the batch, not one per event: a busy merchant's batch
        // holds many events of the same few types.
        Map<String, List<String>> subscribers = new HashMap<>();
        for (OutboxEvent event : events) {
            if (event.type().equals(EventTypes.WEBHOOK_TEST)) {
                queued |= enqueueTest(event);
                continue;
            }
            List<String> endpointIds = subscribers.computeIfAbsent(
                    event.merchantId() + "\n" + event.mode().wire() + "\n" + event.type(),
                    k -> endpoints.subscribedTo(event.merchantId(), event.mode(), event.type()));
            for (String endpointId : endpointIds) {
                deliveries.enqueue(endpointId, event);
                queued = true;
            }
        }
        if (queued) {
            dispatcher.wakeAfterCommit();
        }
    }

    /**
     * A test event goes to the endpoint it tests (its aggregate) and to no other, so an endpoint that takes every
     * type ({@code "*"}) never receives another endpoint's tests; it must still be the event's merchant's and mode's.
     */
    private boolean enqueueTest(OutboxEvent event) {
        var endpoint = endpoints.find(event.aggregateId()).filter(e -> e.merchantId().equals(event.merchantId())
                && e.mode() == event.mode() && e.status() == WebhookEndpoint.Status.ENABLED);
        endpoint.ifPresent(e -> deliveries.enqueue(e.id(), event));
        return endpoint.isPresent();
    }
}
