package io.tender.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Requests written byte for byte on a socket, for what the JDK client refuses to send: unencoded brackets, broken
 * percent-encoding, oversized headers, a header twice. GET, or POST with a JSON body, with {@code Connection: close}.
 */
public final class RawHttp {

    private RawHttp() {
    }

    public record Response(int status, String headers, byte[] body) {
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public String header(String name) {
            for (String line : headers.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    /** Sends {@code GET <target>} as given; {@code key} may be null; {@code extraHeaders} are complete header lines. */
    public static Response get(int port, String target, String key, String... extraHeaders) {
        StringBuilder request = new StringBuilder("GET ").append(target).append(" HTTP/1.1\r\nHost: localhost\r\n");
        if (key != null) {
            request.append("Authorization: Bearer ").append(key).append("\r\n");
        }
        for (String header : extraHeaders) {
            request.append(header).append("\r\n");
        }
        request.append("Connection: close\r\n\r\n");
        return send(port, request.toString());
    }

    /** Sends {@code POST <target>} with a JSON body and exactly the given header lines (and Host, length, close). */
    public static Response post(int port, String target, String json, String... headers) {
        byte[] body = json.getBytes(StandardCharsets.ISO_8859_1);
        StringBuilder request = new StringBuilder("POST ").append(target).append(" HTTP/1.1\r\nHost: localhost\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        request.append("Content-Type: application/json\r\nContent-Length: ").append(body.length)
                .append("\r\nConnection: close\r\n\r\n").append(json);
        return send(port, request.toString());
    }

    private static Response send(int port, String request) {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            socket.getInputStream().transferTo(all);
            String raw = all.toString(StandardCharsets.ISO_8859_1);
            int headersEnd = raw.indexOf("\r\n\r\n");
            String headers = raw.substring(0, headersEnd);
            byte[] body = raw.substring(headersEnd + 4).getBytes(StandardCharsets.ISO_8859_1);
            if (headers.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
                body = dechunk(body);
            }
            return new Response(Integer.parseInt(raw.substring(9, 12)), headers, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String text = new String(chunked, StandardCharsets.ISO_8859_1);
        int position = 0;
        while (true) {
            int lineEnd = text.indexOf("\r\n", position);
            int size = Integer.parseInt(text.substring(position, lineEnd).trim(), 16);
            if (size == 0) {
                return out.toByteArray();
            }
            out.write(chunked, lineEnd + 2, size);
            position = lineEnd + 2 + size + 2;
        }
    }
}
