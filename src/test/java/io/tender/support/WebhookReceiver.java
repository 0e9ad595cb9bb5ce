package io.tender.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A webhook receiver on loopback, as a merchant would write one: it checks every request's signature with
 * {@link StandardWebhooksVerifier}, keeps what arrived, and answers what the test tells it to.
 */
public final class WebhookReceiver implements AutoCloseable {

    /** One request as it arrived; {@code apiVersion} is its {@code Tender-Version}. */
    public record Received(String webhookId, String timestamp, String signature, String contentType, String userAgent,
                           String apiVersion, byte[] body, Instant receivedAt, boolean signatureValid) {

        public JsonNode json() {
            return Api.JSON.readTree(body);
        }

        public String type() {
            return json().get("type").stringValue();
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile StandardWebhooksVerifier verifier;
    private volatile Function<Received, Integer> responder = r -> 200;

    private WebhookReceiver(HttpServer server) {
        this.server = server;
    }

    public static WebhookReceiver start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            WebhookReceiver receiver = new WebhookReceiver(server);
            server.createContext("/", receiver::handle);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** The secrets signatures are checked against (any one may match). */
    public WebhookReceiver secrets(String... secrets) {
        verifier = new StandardWebhooksVerifier(List.of(secrets));
        return this;
    }

    /** What to answer (an HTTP status) for each request; it may block to hold a request open. */
    public WebhookReceiver respond(Function<Received, Integer> responder) {
        this.responder = responder;
        return this;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public List<Received> received(String webhookId) {
        return received.stream().filter(r -> r.webhookId().equals(webhookId)).toList();
    }

    /** Waits until what arrived satisfies the condition, or fails after the timeout. */
    public List<Received> await(Predicate<List<Received>> condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Received> now = received();
            if (condition.test(now)) {
                return now;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + "; received " + describe(now));
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted");
            }
        }
    }

    public static String describe(List<Received> list) {
        List<String> lines = new ArrayList<>();
        for (Received r : list) {
            lines.add(r.webhookId() + " " + r.type() + (r.signatureValid() ? "" : " (BAD SIGNATURE)"));
        }
        return lines.toString();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            var headers = exchange.getRequestHeaders();
            String id = headers.getFirst("webhook-id");
            String timestamp = headers.getFirst("webhook-timestamp");
            String signature = headers.getFirst("webhook-signature");
            StandardWebhooksVerifier check = verifier;
            Instant now = Instant.now();
            boolean valid = check != null && check.verify(id, timestamp, signature, body, now);
            Received request = new Received(id, timestamp, signature, headers.getFirst("Content-Type"),
                    headers.getFirst("User-Agent"), headers.getFirst("Tender-Version"), body, now, valid);
            received.add(request);
            int status = valid ? responder.apply(request) : 400;
            exchange.sendResponseHeaders(status, -1);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
