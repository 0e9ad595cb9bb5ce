package io.tender.webhook;

import io.tender.outbox.EventLog;
import io.tender.outbox.OutboxEvent;
import io.tender.outbox.Wakeup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import jakarta.annotation.PreDestroy;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Makes webhook attempts. One loop per instance claims due deliveries (any instance may take any of them, see
 * {@link WebhookDeliveries#claimDue}) and runs each attempt on its own virtual thread, at most
 * {@code tender.webhooks.max-concurrency} at a time, and records it: a 2xx within the timeout is success
 * ({@link WebhookSender} makes the request), 410 Gone disables the endpoint, anything else is retried on the schedule.
 *
 * <p>Fair (decisions §9): an attempt may hang for the whole timeout, so the pool is shared out. One endpoint has at
 * most {@code endpoint-concurrency} attempts in flight, one merchant (per mode) at most {@code merchant-concurrency};
 * the claim skips endpoints and merchants at their limit, so one merchant's hanging receivers hold only its own share
 * and every other merchant's deliveries go out from the rest of the pool as soon as they are due.
 */
@Component
class WebhookDispatcher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WebhookDispatcher.class);

    private final WebhookDeliveries deliveries;
    private final WebhookEndpoints endpoints;
    private final EventLog events;
    private final WebhookSender sender;
    private final WebhookSettings settings;
    private final TransactionTemplate tx;
    private final RetrySchedule schedule;
    private final Wakeup wakeup = new Wakeup();
    private final Semaphore slots;
    /** Attempts in flight in this instance, by endpoint and by tenant; guarded by itself. */
    private final Map<String, Integer> endpointsInFlight = new HashMap<>();
    private final Map<String, Integer> tenantsInFlight = new HashMap<>();
    private final ExecutorService attempts = Executors.newVirtualThreadPerTaskExecutor();
    private volatile boolean running;
    private Thread loop;

    WebhookDispatcher(WebhookDeliveries deliveries, WebhookEndpoints endpoints, EventLog events,
                      WebhookSender sender, WebhookSettings settings, TransactionTemplate tx) {
        this.deliveries = deliveries;
        this.endpoints = endpoints;
        this.events = events;
        this.sender = sender;
        this.settings = settings;
        this.tx = tx;
        this.schedule = new RetrySchedule(settings.retrySchedule(), settings.jitter(),
                () -> ThreadLocalRandom.current().nextDouble());
        this.slots = new Semaphore(settings.maxConcurrency());
    }

    void wake() {
        wakeup.wake();
    }

    /** Wakes the loop once the current transaction has committed what it should find. */
    void wakeAfterCommit() {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            wake();
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                wake();
            }
        });
    }

    private void loop() {
        while (running) {
            long seen = wakeup.generation();
            try {
                int free = slots.availablePermits();
                var inFlight = inFlight();
                List<WebhookDeliveries.Claim> claims = free == 0 ? List.of()
                        : tx.execute(s -> deliveries.claimDue(Math.min(free, 100), settings.lease(), inFlight,
                                settings.endpointConcurrency(), settings.merchantConcurrency()));
                for (var claim : claims) {
                    slots.acquire();
                    started(claim);
                    attempts.execute(() -> {
                        try {
                            attempt(claim);
                        } catch (RuntimeException e) {
                            log.warn("Webhook attempt {} of delivery {} could not be recorded: {}", claim.attempt(),
                                    claim.deliveryId(), e.toString());
                        } finally {
                            finished(claim);
                            slots.release();
                            wakeup.wake();
                        }
                    });
                }
                if (claims == null || claims.isEmpty()) {
                    wakeup.awaitAfter(seen, settings.pollInterval());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.warn("Claiming webhook deliveries failed: {}", e.toString());
                try {
                    Thread.sleep(settings.pollInterval());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** A copy of what is in flight, for one claim. Only this loop adds to it, so the copy never undercounts. */
    private WebhookDeliveries.InFlight inFlight() {
        synchronized (endpointsInFlight) {
            return new WebhookDeliveries.InFlight(new LinkedHashMap<>(endpointsInFlight),
                    new LinkedHashMap<>(tenantsInFlight));
        }
    }

    private void started(WebhookDeliveries.Claim claim) {
        synchronized (endpointsInFlight) {
            endpointsInFlight.merge(claim.endpointId(), 1, Integer::sum);
            tenantsInFlight.merge(claim.tenant(), 1, Integer::sum);
        }
    }

    private void finished(WebhookDeliveries.Claim claim) {
        synchronized (endpointsInFlight) {
            endpointsInFlight.computeIfPresent(claim.endpointId(), (id, n) -> n == 1 ? null : n - 1);
            tenantsInFlight.computeIfPresent(claim.tenant(), (id, n) -> n == 1 ? null : n - 1);
        }
    }

    private void attempt(WebhookDeliveries.Claim claim) {
        Optional<WebhookEndpoint> found = endpoints.find(claim.endpointId());
        Optional<OutboxEvent> event = events.find(claim.eventId());
        if (found.isEmpty() || event.isEmpty()) {
            return; // deleted meanwhile; the delivery went with it
        }
        WebhookEndpoint endpoint = found.get();
        if (endpoint.status() != WebhookEndpoint.Status.ENABLED) {
            tx.executeWithoutResult(s -> deliveries.release(claim));
            return;
        }
        var result = sender.send(endpoint, event.get());
        Duration retryAfter = result.succeeded() ? null : schedule.pauseAfter(claim.failures() + 1).orElse(null);
        tx.executeWithoutResult(s -> {
            deliveries.record(claim, event.get().type(), result, retryAfter);
            if (Integer.valueOf(410).equals(result.responseStatus())) {
                endpoints.disableAsGone(endpoint.id());
            }
        });
        if (!result.succeeded()) {
            log.info("Webhook {} to endpoint {} failed on attempt {} ({}); {}", event.get().id(), endpoint.id(),
                    claim.attempt(), result.error() != null ? result.error() : "HTTP " + result.responseStatus(),
                    retryAfter == null ? "giving up" : "next in " + retryAfter);
        }
    }

    @Override
    public synchronized void start() {
        running = true;
        loop = Thread.ofVirtual().name("webhook-dispatcher").start(this::loop);
    }

    /**
     * Stops claiming and lets the attempts in flight finish and record their outcome (anything cut short is retried
     * after its lease). A stopped dispatcher can be started again (Spring may stop and restart a context), so the
     * executor the attempts run on lives until the bean is destroyed.
     */
    @Override
    public synchronized void stop() {
        running = false;
        wakeup.wake();
        try {
            if (loop != null && !loop.join(Duration.ofSeconds(30))) {
                loop.interrupt();
            }
            int all = settings.maxConcurrency();
            if (slots.tryAcquire(all, settings.timeout().toMillis() + 1000, TimeUnit.MILLISECONDS)) {
                slots.release(all);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @PreDestroy
    void close() {
        attempts.shutdown();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
