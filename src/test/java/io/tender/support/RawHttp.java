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
 * percent-encoding, oversized headers, a header twice, control characters in headers, bodies that are not UTF-8. Every request is sent
 * with {@code Connection: close}.
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
        String[] headers = extraHeaders;
        if (key != null) {
            headers = new String[extraHeaders.length + 1];
            headers[0] = "Authorization: Bearer " + key;
            System.arraycopy(extraHeaders, 0, headers, 1, extraHeaders.length);
        }
        return send(port, "GET", target, null, headers);
    }

    /** Sends {@code POST <target>} with a JSON body and exactly the given header lines (and Host, length, close). */
    public static Response post(int port, String target, String json, String... headers) {
        String[] lines = java.util.Arrays.copyOf(headers, headers.length + 1);
        lines[headers.length] = "Content-Type: application/json";
        return send(port, "POST", target, json.getBytes(StandardCharsets.ISO_8859_1), lines);
    }

    /**
     * Sends {@code <method> <target>} with these complete header lines (each char written as one ISO-8859-1 byte, so
     * a header may carry control characters and raw UTF-8 bytes) and this body ({@code Content-Length} is added;
     * null sends none). If the service answers and closes before it has read the whole body (a 413), the answer is
     * still returned.
     */
    public static Response send(int port, String method, String target, byte[] body, String... headerLines) {
        StringBuilder request = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        // Host: localhost unless the test sends a Host of its own (a forged one, decisions §12).
        if (java.util.Arrays.stream(headerLines).noneMatch(h -> h.regionMatches(true, 0, "Host:", 0, 5))) {
            request.append("Host: localhost\r\n");
        }
        for (String header : headerLines) {
            request.append(header).append("\r\n");
        }
        if (body != null) {
            request.append("Content-Length: ").append(body.length).append("\r\n");
        }
        request.append("Connection: close\r\n\r\n");
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
                if (body != null) {
                    out.write(body);
                }
                out.flush();
            } catch (IOException e) {
                // The service may refuse early and close; its answer is read below.
            }
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            try {
                socket.getInputStream().transferTo(all);
            } catch (IOException e) {
                // A reset after the answer was written: keep what arrived.
                if (all.size() == 0) {
                    throw e;
                }
            }
            String raw = all.toString(StandardCharsets.ISO_8859_1);
            // Interim answers (100 Continue) come before the final one.
            while (raw.startsWith("HTTP/1.1 1") && raw.indexOf("\r\n\r\n") > 0) {
                raw = raw.substring(raw.indexOf("\r\n\r\n") + 4);
            }
            int headersEnd = raw.indexOf("\r\n\r\n");
            if (!raw.startsWith("HTTP/1.1 ") || headersEnd < 0) {
                throw new IOException("no HTTP answer, only " + all.size() + " bytes");
            }
            String headers = raw.substring(0, headersEnd);
            byte[] answer = raw.substring(headersEnd + 4).getBytes(StandardCharsets.ISO_8859_1);
            if (headers.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
                answer = dechunk(answer);
            }
            return new Response(Integer.parseInt(raw.substring(9, 12)), headers, answer);
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
