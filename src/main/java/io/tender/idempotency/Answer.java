package io.tender.idempotency;

import io.tender.api.Rejection;
import org.springframework.http.ResponseEntity;

/**
 * A flow's answer to one request: its typed {@link Outcome}, which a page renders, beside the {@link StoredResponse}
 * the API sends (and replays under the request's Idempotency-Key). Both say the same thing; only the API's bytes are
 * stored.
 */
public record Answer<V>(Outcome<V> outcome, StoredResponse response) {

    /** Done: {@code view}, answered as {@code response}. */
    public static <V> Answer<V> done(V view, StoredResponse response) {
        return new Answer<>(new Outcome.Done<>(view), response);
    }

    /** Refused by {@code rejection}, answered (and stored) as its problem {@code response}. */
    public static <V> Answer<V> refused(Rejection rejection, StoredResponse response) {
        return new Answer<>(new Outcome.Refused<>(rejection), response);
    }

    public ResponseEntity<byte[]> toEntity() {
        return response.toEntity();
    }
}
