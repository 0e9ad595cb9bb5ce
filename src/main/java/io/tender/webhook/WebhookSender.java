package io.tender.webhook;

import io.tender.apiversion.ApiVersions;
import io.tender.apiversion.VersionShapes;
import io.tender.auth.Mode;
import io.tender.outbox.OutboxEvent;
import jakarta.annotation.PreDestroy;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.springframework.stereotype.Component;

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Makes one webhook attempt: POSTs the event's {@code {id, type, created_at, data}}, rendered in the endpoint's API
 * version (named by {@code Tender-Version}) and signed over those bytes per Standard Webhooks with a fresh
 * {@code webhook-timestamp}, and reports what came of it. The whole exchange, body included, must fit in
 * {@code tender.webhooks.timeout} (the host's DNS lookup included); redirects are not followed; HTTP/1.1.
 *
 * <p>Apache HttpClient rather than the JDK's, because it lets the connection resolve the host through
 * {@link WebhookTargets#resolveForConnect}: a live-mode attempt connects only to addresses that pass the SSRF rule
 * at that moment, whatever the host resolved to when the URL was checked (DNS rebinding). Live and test
 * mode have a client each, since test-mode endpoints may target loopback and private addresses.
 */
@Component
class WebhookSender {

    static final String USER_AGENT = WebhookSigner.USER_AGENT;
    static final int EXCERPT_CHARACTERS = 500;
    private static final int EXCERPT_BYTES = 4 * EXCERPT_CHARACTERS;
    private static final ContentType JSON = ContentType.create("application/json");

    private final WebhookTargets targets;
    private final VersionShapes shapes;
    private final Duration timeout;
    private final CloseableHttpClient live;
    private final CloseableHttpClient test;
    private final ExecutorService exchanges = Executors.newVirtualThreadPerTaskExecutor();

    WebhookSender(WebhookTargets targets, VersionShapes shapes, WebhookSettings settings) {
        this.targets = targets;
        this.shapes = shapes;
        this.timeout = settings.timeout();
        this.live = client(Mode.LIVE, settings);
        this.test = client(Mode.TEST, settings);
    }

    private CloseableHttpClient client(Mode mode, WebhookSettings settings) {
        Timeout limit = Timeout.of(settings.timeout());
        DnsResolver dns = new DnsResolver() {
            @Override
            public InetAddress[] resolve(String host) throws UnknownHostException {
                return targets.resolveForConnect(host, mode);
            }

            @Override
            public String resolveCanonicalHostname(String host) throws UnknownHostException {
                return SystemDefaultDnsResolver.INSTANCE.resolveCanonicalHostname(host);
            }
        };
        // Twice the attempts in flight: an attempt that timed out may hold its connection a little longer, and one
        // slow receiver must not leave the others waiting for a connection.
        return HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setDnsResolver(dns)
                        .setMaxConnTotal(2 * settings.maxConcurrency())
                        .setMaxConnPerRoute(settings.maxConcurrency())
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(limit).setSocketTimeout(limit).build())
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setResponseTimeout(limit).setConnectionRequestTimeout(limit).build())
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableContentCompression()
                .evictIdleConnections(TimeValue.ofSeconds(30))
                .setUserAgent(USER_AGENT)
                .build();
    }

    WebhookDeliveries.AttemptResult send(WebhookEndpoint endpoint, OutboxEvent event) {
        long started = System.nanoTime();
        long timestamp = Instant.now().getEpochSecond();
        byte[] body = shapes.renderEvent(endpoint.apiVersion(), event.type(), event.envelopeBytes());
        HttpPost post = new HttpPost(URI.create(endpoint.url()));
        post.setHeader(ApiVersions.HEADER, endpoint.apiVersion().wire());
        post.setHeader("webhook-id", event.id());
        post.setHeader("webhook-timestamp", Long.toString(timestamp));
        post.setHeader("webhook-signature", WebhookSigner.signature(event.id(), timestamp, body,
                endpoint.signingSecrets(Instant.now())));
        post.setEntity(new ByteArrayEntity(body, JSON));
        CloseableHttpClient client = endpoint.mode() == Mode.LIVE ? live : test;
        CompletableFuture<Answer> exchange = CompletableFuture.supplyAsync(() -> {
            try {
                return client.execute(post, response -> {
                    String excerpt = excerpt(response.getEntity());
                    EntityUtils.consume(response.getEntity());
                    return new Answer(response.getCode(), excerpt);
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, exchanges);
        try {
            // The whole exchange, body included, must fit in the timeout.
            Answer answer = exchange.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            int status = answer.status();
            return new WebhookDeliveries.AttemptResult(status >= 200 && status < 300, status, null,
                    Duration.ofNanos(System.nanoTime() - started), timestamp, answer.excerpt());
        } catch (TimeoutException e) {
            post.cancel();
            return failure("timeout", started, timestamp);
        } catch (InterruptedException e) {
            post.cancel();
            Thread.currentThread().interrupt();
            return failure("interrupted", started, timestamp);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof UncheckedIOException io ? io.getCause() : e.getCause();
            return failure(errorOf(cause), started, timestamp);
        }
    }

    private static WebhookDeliveries.AttemptResult failure(String error, long started, long timestamp) {
        return new WebhookDeliveries.AttemptResult(false, null, error, Duration.ofNanos(System.nanoTime() - started),
                timestamp, null);
    }

    /** The receiver's status and the start of its body. */
    private record Answer(int status, String excerpt) {
    }

    /**
     * At most {@link #EXCERPT_CHARACTERS} characters of the body as UTF-8 text (bad bytes replaced, NUL dropped, as
     * PostgreSQL's text cannot hold it), read from its first {@link #EXCERPT_BYTES} bytes; null for no body.
     */
    static String excerpt(HttpEntity entity) throws IOException {
        if (entity == null) {
            return null;
        }
        byte[] start;
        try (InputStream in = entity.getContent()) {
            if (in == null) {
                return null;
            }
            start = in.readNBytes(EXCERPT_BYTES);
        }
        String text = new String(start, StandardCharsets.UTF_8).replace("\0", "");
        if (text.length() > EXCERPT_CHARACTERS) {
            text = text.substring(0, EXCERPT_CHARACTERS);
        }
        return text.isEmpty() ? null : text;
    }

    /** A short, stable word for what went wrong; never the exception message, which may carry the URL. */
    static String errorOf(Throwable cause) {
        if (cause instanceof WebhookTargets.AddressNotAllowedException) {
            return "address_not_allowed";
        }
        if (cause instanceof ConnectTimeoutException) {
            return "connect_timeout";
        }
        if (cause instanceof SocketTimeoutException) {
            return "timeout";
        }
        if (cause instanceof ConnectException || cause instanceof UnknownHostException) {
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

    @PreDestroy
    void close() {
        live.close(CloseMode.IMMEDIATE);
        test.close(CloseMode.IMMEDIATE);
        exchanges.shutdown();
    }
}
