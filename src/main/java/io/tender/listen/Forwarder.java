package io.tender.listen;

import io.tender.apiversion.ApiVersions;
import io.tender.webhook.WebhookSigner;

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

/**
 * Posts one event to the local receiver as a webhook delivery is made: the same body, {@code Content-Type},
 * {@code User-Agent}, {@code Tender-Version} and Standard Webhooks headers, signed by the service's own signer with the
 * listener's secret and a fresh timestamp per attempt.
 */
final class Forwarder {

    /** As a delivery: a 2xx within 15 seconds, body and all. */
    static final Duration TIMEOUT = Duration.ofSeconds(15);

    /** What came of one attempt: the receiver's status, or why there was none. */
    record Outcome(Integer status, String error) {

        boolean delivered() {
            return status != null && status >= 200 && status < 300;
        }

        @Override
        public String toString() {
            return status != null ? Integer.toString(status) : error;
        }
    }

    private final HttpClient http;
    private final URI target;
    private final String secret;

    Forwarder(HttpClient http, URI target, String secret) {
        this.http = http;
        this.target = target;
        this.secret = secret;
    }

    Outcome send(EventFeed.Event event) throws InterruptedException {
        long timestamp = Instant.now().getEpochSecond();
        HttpRequest.Builder builder = HttpRequest.newBuilder(target).timeout(TIMEOUT);
        if (event.apiVersion() != null) {
            builder.header(ApiVersions.HEADER, event.apiVersion());
        }
        HttpRequest request = builder
                .header("Content-Type", "application/json")
                .header("User-Agent", WebhookSigner.USER_AGENT)
                .header("webhook-id", event.id())
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", WebhookSigner.signature(event.id(), timestamp, event.body(), List.of(secret)))
                .POST(HttpRequest.BodyPublishers.ofByteArray(event.body()))
                .build();
        try {
            return new Outcome(http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode(), null);
        } catch (HttpConnectTimeoutException e) {
            return new Outcome(null, "connect timeout");
        } catch (HttpTimeoutException e) {
            return new Outcome(null, "no answer in " + TIMEOUT.toSeconds() + "s");
        } catch (ConnectException e) {
            return new Outcome(null, "connection refused (is your receiver running?)");
        } catch (IOException e) {
            return new Outcome(null, "network error (" + e.getClass().getSimpleName() + ")");
        }
    }
}
