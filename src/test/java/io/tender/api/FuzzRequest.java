package io.tender.api;

import io.tender.support.RawHttp;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One request of the fuzzer, immutable, as it goes on the wire: the path already percent-encoded (or deliberately
 * not), query items as raw {@code name=value} text, header values whose chars are written as single bytes (so they
 * can hold control characters or raw UTF-8), and the body as bytes (null: no body).
 */
record FuzzRequest(String method, String path, List<String> query, Map<String, String> headers, byte[] body) {

    FuzzRequest {
        query = List.copyOf(query);
        headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    String target() {
        return query.isEmpty() ? path : path + "?" + String.join("&", query);
    }

    FuzzRequest withPath(String newPath) {
        return new FuzzRequest(method, newPath, query, headers, body);
    }

    FuzzRequest withQuery(String item) {
        List<String> items = new ArrayList<>(query);
        items.add(item);
        return new FuzzRequest(method, path, items, headers, body);
    }

    /** Sets (or with null, removes) a header; names compare without case. */
    FuzzRequest withHeader(String name, String value) {
        Map<String, String> changed = new LinkedHashMap<>();
        headers.forEach((k, v) -> {
            if (!k.equalsIgnoreCase(name)) {
                changed.put(k, v);
            }
        });
        if (value != null) {
            changed.put(name, value);
        }
        return new FuzzRequest(method, path, query, changed, body);
    }

    FuzzRequest withBody(byte[] newBody) {
        FuzzRequest request = new FuzzRequest(method, path, query, headers, newBody);
        return newBody != null && !headers.keySet().stream().anyMatch(h -> h.equalsIgnoreCase("Content-Type"))
                ? request.withHeader("Content-Type", "application/json") : request;
    }

    RawHttp.Response send(int port) {
        List<String> lines = new ArrayList<>();
        headers.forEach((name, value) -> lines.add(name + ": " + value));
        return RawHttp.send(port, method, target(), body, lines.toArray(String[]::new));
    }

    /** For the failure report: the request line and headers, with long values cut. */
    String describe() {
        StringBuilder out = new StringBuilder(method).append(' ').append(cut(target(), 160));
        headers.forEach((name, value) -> {
            if (!name.equalsIgnoreCase("Authorization")) {
                out.append(" | ").append(name).append(": ").append(cut(printable(value), 60));
            }
        });
        if (body != null) {
            out.append(" | body ").append(body.length).append(" B: ")
                    .append(cut(printable(new String(body, StandardCharsets.UTF_8)), 200));
        }
        return out.toString();
    }

    static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "…(" + text.length() + " chars)";
    }

    /** Control characters shown as \\uXXXX so the report stays one readable line. */
    static String printable(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().limit(2000).forEach(c -> {
            if (c < 0x20 || c == 0x7f || (c >= 0xd800 && c <= 0xdfff)) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }
}
