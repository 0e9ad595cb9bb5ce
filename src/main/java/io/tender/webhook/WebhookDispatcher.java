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

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import jakarta.annotation.PreDestroy;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Makes webhook attempts. One loop per instance claims due deliveries (any instance may take any of them, see
 * {@link WebhookDeliveries#claimDue}) and runs each attempt on its own virtual thread, at most
 * {@code tender.webhooks.max-concurrency} at a time. An attempt POSTs the event's {@code {id, type, created_at,
 * data}} signed per Standard Webhooks, with a fresh {@code webhook-timestamp}; a 2xx within the timeout is success,
 * redirects are not followed, 410 Gone disables the endpoint, anything else is retried on the schedule.
 */
@Component
class WebhookDispatcher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WebhookDispatcher.class);
    static final String USER_AGENT = "Tender-Webhooks/1";

    private final WebhookDeliveries deliveries;
    private final WebhookEndpoints endpoints;
    private final EventLog events;
    private final WebhookTargets targets;
    private final WebhookSettings settings;
    private final TransactionTemplate tx;
    private final RetrySchedule schedule;
    private final Wakeup wakeup = new Wakeup();
    private final Semaphore slots;
    private final ExecutorService attempts = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient http;
    private volatile boolean running;
    private Thread loop;

    WebhookDispatcher(WebhookDeliveries deliveries, WebhookEndpoints endpoints, EventLog events,
                      WebhookTargets targets, WebhookSettings settings, TransactionTemplate tx) {
        this.deliveries = deliveries;
        this.endpoints = endpoints;
        this.events = events;
        this.targets = targets;
        this.settings = settings;
        this.tx = tx;
        this.schedule = new RetrySchedule(settings.retrySchedule(), settings.jitter(),
                () -> ThreadLocalRandom.current().nextDouble());
        this.slots = new Semaphore(settings.maxConcurrency());
        this.http = HttpClient.newBuilder()
                .connectTimeout(settings.timeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(attempts)
                .build();
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
                List<WebhookDeliveries.Claim> claims = free == 0 ? List.of()
                        : tx.execute(s -> deliveries.claimDue(Math.min(free, 100), settings.lease()));
                for (var claim : claims) {
                    slots.acquire();
                    attempts.execute(() -> {
                        try {
                            attempt(claim);
                        } catch (RuntimeException e) {
                            log.warn("Webhook attempt {} of delivery {} could not be recorded: {}", claim.attempt(),
                                    claim.deliveryId(), e.toString());
                        } finally {
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
        var result = send(endpoint, event.get());
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

    private WebhookDeliveries.AttemptResult send(WebhookEndpoint endpoint, OutboxEvent event) {
        long started = System.nanoTime();
        long timestamp = Instant.now().getEpochSecond();
        URI uri = URI.create(endpoint.url());
        var refusal = targets.checkAddress(uri, endpoint.mode());
        if (refusal.isPresent()) {
            return new WebhookDeliveries.AttemptResult(false, null, "address_not_allowed", Duration.ZERO, timestamp);
        }
        byte[] body = event.envelopeBytes();
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(settings.timeout())
                .header("Content-Type", "application/json")
                .header("User-Agent", USER_AGENT)
                .header("webhook-id", event.id())
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", WebhookSigner.signature(event.id(), timestamp, body,
                        endpoint.signingSecrets(Instant.now())))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        CompletableFuture<HttpResponse<Void>> exchange = http.sendAsync(request, HttpResponse.BodyHandlers.discarding());
        try {
            // The whole exchange, body included, must fit in the timeout.
            int status = exchange.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS).statusCode();
            return new WebhookDeliveries.AttemptResult(status >= 200 && status < 300, status, null,
                    Duration.ofNanos(System.nanoTime() - started), timestamp);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            return failure("timeout", started, timestamp);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            return failure("interrupted", started, timestamp);
        } catch (ExecutionException e) {
            return failure(errorOf(e.getCause()), started, timestamp);
        }
    }

    private static WebhookDeliveries.AttemptResult failure(String error, long started, long timestamp) {
        return new WebhookDeliveries.AttemptResult(false, null, error, Duration.ofNanos(System.nanoTime() - started),
                timestamp);
    }

    /** A short, stable word for what went wrong; never the exception message, which may carry the URL. */
    static String errorOf(Throwable cause) {
        if (cause instanceof HttpConnectTimeoutException) {
            return "connect_timeout";
        }
        if (cause instanceof HttpTimeoutException) {
            return "timeout";
        }
        if (cause instanceof ConnectException) {
            return "connection_failed";
        }
        if (cause instanceof SSLException) {
            return "tls_error";
        }
        if (cause instanceof IOException) {
            return "network_error";
        }
        return "error";
    }

    @Override
    public synchronized void start() {
        running = true;
        loop = Thread.ofVirtual().name("webhook-dispatcher").start(this::loop);
    }

    /**
     * Stops claiming and lets the attempts in flight finish and record their outcome (anything cut short is retried
     * after its lease). A stopped dispatcher can be started again (Spring may stop and restart a context), so the
     * executor the HTTP client runs on lives until the bean is destroyed.
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
