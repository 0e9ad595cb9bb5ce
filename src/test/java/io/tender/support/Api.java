package io.tender.support;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A small HTTP client for the tests: real requests over loopback, raw bytes kept for byte-for-byte checks. */
public final class Api {

    public static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String base;
    private final String key;
    private final HttpClient http;

    public Api(String base, String key) {
        this(base, key, HTTP);
    }

    private Api(String base, String key, HttpClient http) {
        this.base = base;
        this.key = key;
        this.http = http;
    }

    public Api as(String otherKey) {
        return new Api(base, otherKey, http);
    }

    /**
     * The same client connecting from another local address, such as {@code 127.0.0.2}: on Linux every 127.x.y.z is
     * this machine, so the service sees a second client address (for the per-address rate limit).
     */
    public Api from(String localAddress) {
        try {
            return new Api(base, key, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                    .localAddress(InetAddress.getByName(localAddress)).build());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    public String base() {
        return base;
    }

    /** The API key this client sends, for requests built by hand (chunked bodies, raw sockets). */
    public String key() {
        return key;
    }

    public Request post(String path, String body) {
        return new Request("POST", path, body);
    }

    /** A POST whose body is sent as these bytes, exactly (for bodies that are not valid UTF-8). */
    public Request postBytes(String path, byte[] body) {
        return new Request("POST", path, body);
    }

    public Request patch(String path, String body) {
        return new Request("PATCH", path, body);
    }

    public Request get(String path) {
        return new Request("GET", path, (byte[]) null);
    }

    public Request delete(String path) {
        return new Request("DELETE", path, (byte[]) null);
    }

    public Request method(String method, String path, String body) {
        return new Request(method, path, body);
    }

    public final class Request {
        private final String method;
        private final String path;
        private final byte[] body;
        private final List<String> headers = new ArrayList<>();
        private boolean authorize = true;
        private String contentType = "application/json";

        Request(String method, String path, String body) {
            this(method, path, body == null ? null : body.getBytes(StandardCharsets.UTF_8));
        }

        Request(String method, String path, byte[] body) {
            this.method = method;
            this.path = path;
            this.body = body;
        }

        public Request header(String name, String value) {
            headers.add(name);
            headers.add(value);
            return this;
        }

        public Request idempotencyKey(String value) {
            return header("Idempotency-Key", value);
        }

        public Request withoutKey() {
            authorize = false;
            return this;
        }

        public Request contentType(String value) {
            contentType = value;
            return this;
        }

        public Response send() {
            var builder = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
            if (authorize && key != null) {
                builder.header("Authorization", "Bearer " + key);
            }
            if (body != null && contentType != null) {
                builder.header("Content-Type", contentType);
            }
            for (int i = 0; i < headers.size(); i += 2) {
                builder.header(headers.get(i), headers.get(i + 1));
            }
            builder.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
            try {
                return new Response(http.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray()));
            } catch (IOException e) {
                throw new RuntimeException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RuntimeException(e);
            }
        }
    }

    public record Response(HttpResponse<byte[]> raw) {
        public int status() {
            return raw.statusCode();
        }

        public byte[] bytes() {
            return raw.body();
        }

        public String text() {
            return new String(raw.body(), StandardCharsets.UTF_8);
        }

        public JsonNode json() {
            return JSON.readTree(raw.body());
        }

        public String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }

        public String contentType() {
            return header("Content-Type");
        }

        @Override
        public String toString() {
            return status() + " " + text();
        }
    }
}
