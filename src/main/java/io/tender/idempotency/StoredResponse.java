package io.tender.idempotency;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/** A response as it went out the first time: replays send exactly these bytes, marked {@code Idempotent-Replayed}. */
public record StoredResponse(int status, String contentType, byte[] body, boolean replayed) {

    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    public static StoredResponse json(int status, byte[] body) {
        return new StoredResponse(status, MediaType.APPLICATION_JSON_VALUE, body, false);
    }

    public ResponseEntity<byte[]> toEntity() {
        var builder = ResponseEntity.status(status).contentType(MediaType.parseMediaType(contentType));
        if (replayed) {
            builder.header(REPLAYED_HEADER, "true");
        }
        return builder.body(body);
    }
}
