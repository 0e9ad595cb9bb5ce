package io.tender.listen;

import io.tender.apiversion.ApiVersion;
import io.tender.apiversion.ApiVersions;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The merchant's event log over the API: {@code GET /events}, which lists newest first with a cursor to older pages
 * and a {@code created_at[gte]} bound. Each event comes with the exact bytes a webhook delivery of it carries, in the
 * API version asked for ({@code Tender-Version}) or else the merchant's pinned one, as the answer names it.
 */
final class EventFeed {

    static final int PAGE = 100;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * One event: its id, type and time, the webhook body {@code {id, type, created_at, data}}, and the API version that
     * body is rendered in.
     */
    record Event(String id, String type, Instant createdAt, byte[] body, String apiVersion) {
    }

    /** The API could not be read: {@code retry} says whether waiting may help (unreachable, 5xx, 429). */
    static final class FeedException extends Exception {
        private final boolean retry;

        FeedException(String message, boolean retry) {
            super(message);
            this.retry = retry;
        }

        boolean retry() {
            return retry;
        }
    }

    private final HttpClient http;
    private final URI baseUrl;
    private final String apiKey;
    private final ApiVersion apiVersion;
    private volatile String answeredVersion;

    /** {@code apiVersion}: the version to ask for; null for the merchant's pinned one. */
    EventFeed(HttpClient http, URI baseUrl, String apiKey, ApiVersion apiVersion) {
        this.http = http;
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.apiVersion = apiVersion;
    }

    /** The API version the service last answered in (null before it answered). */
    String answeredVersion() {
        return answeredVersion;
    }

    /** The newest event in the log, if any. */
    Optional<Event> newest() throws FeedException, InterruptedException {
        List<Event> page = new ArrayList<>();
        get("limit=1", page);
        return page.stream().findFirst();
    }

    /** Every event created at or after {@code floor}, oldest first (by id, the log's order). */
    List<Event> since(Instant floor) throws FeedException, InterruptedException {
        List<Event> newestFirst = new ArrayList<>();
        String query = "limit=" + PAGE + "&" + encode("created_at[gte]") + "=" + encode(floor.toString());
        String cursor = null;
        do {
            cursor = get(query + (cursor == null ? "" : "&cursor=" + encode(cursor)), newestFirst);
        } while (cursor != null);
        return newestFirst.reversed();
    }

    /** Adds one page's events to {@code into}; returns the next page's cursor, or null at the end. */
    private String get(String query, List<Event> into) throws FeedException, InterruptedException {
        URI uri = URI.create(baseUrl.toString().replaceAll("/+$", "") + "/events?" + query);
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + apiKey)
                .header("Accept", "application/json")
                .header("User-Agent", "tender-listen/1");
        if (apiVersion != null) {
            builder.header(ApiVersions.HEADER, apiVersion.wire());
        }
        HttpRequest request = builder.GET().build();
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new FeedException("cannot reach Tender at " + baseUrl + " (" + e.getClass().getSimpleName()
                    + "): is it running? Start it with ./tender, or point --base-url at it", true);
        }
        int status = response.statusCode();
        if (status == 401) {
            throw new FeedException("Tender refused the API key (401): check --api-key or TENDER_API_KEY (the "
                    + "service prints a test key when it starts; a key from another data directory is unknown here)", false);
        }
        if (status == 429 || status >= 500) {
            throw new FeedException("Tender answered " + status + " to GET /events", true);
        }
        if (status != 200) {
            throw new FeedException("Tender answered " + status + " to GET /events: " + problemTitle(response.body()), false);
        }
        String version = response.headers().firstValue(ApiVersions.HEADER).orElse(null);
        answeredVersion = version;
        try {
            JsonNode page = JSON.readTree(response.body());
            for (JsonNode event : page.path("data")) {
                into.add(event(event, version));
            }
            return page.path("has_more").asBoolean(false) ? page.path("next_cursor").asString(null) : null;
        } catch (JacksonException | IllegalArgumentException | java.time.format.DateTimeParseException e) {
            throw new FeedException("GET /events at " + baseUrl + " did not answer an event list: is --base-url a "
                    + "Tender service?", false);
        }
    }

    /**
     * The event as a webhook carries it: the same four properties in the same order, written by a default Jackson
     * mapper from the same tree, which is how the service writes a delivery's body (so the bytes, and the signature
     * over them, are a delivery's).
     */
    private static Event event(JsonNode view, String version) {
        String id = view.get("id").asString();
        String type = view.get("type").asString();
        String createdAt = view.get("created_at").asString();
        ObjectNode envelope = JSON.createObjectNode();
        envelope.put("id", id);
        envelope.put("type", type);
        envelope.put("created_at", createdAt);
        JsonNode data = view.get("data");
        envelope.set("data", data == null ? JsonNodeFactory.instance.nullNode() : data);
        return new Event(id, type, Instant.parse(createdAt), JSON.writeValueAsBytes(envelope), version);
    }

    private static String problemTitle(byte[] body) {
        try {
            JsonNode problem = JSON.readTree(body);
            String detail = problem.path("detail").asString(problem.path("title").asString(""));
            return detail.isEmpty() ? "(no detail)" : detail.replaceAll("\\p{Cntrl}", " ");
        } catch (JacksonException e) {
            return "(not a problem document)";
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
