package io.tender.idempotency;

import io.tender.api.ApiException;

import java.util.function.Function;

/**
 * A request as an application service sees it, without any servlet type: its Idempotency-Key (or null), what the key
 * is bound to, and how a domain failure is rendered for storage under the key. The web edge builds it
 * ({@link IdempotentRequests#keyed}); a recovery job has none.
 */
public record KeyedRequest(String key, RequestFingerprint fingerprint, Function<ApiException, StoredResponse> failures) {

    public KeyedRequest {
        IdempotencyKeys.validate(key);
        if (key != null && fingerprint == null) {
            throw new IllegalArgumentException("a keyed request needs its fingerprint");
        }
    }

    /** A request without a key: nothing is stored, nothing replays. */
    public static KeyedRequest unkeyed() {
        return new KeyedRequest(null, null, e -> {
            throw e;
        });
    }
}
