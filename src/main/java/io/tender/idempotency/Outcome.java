package io.tender.idempotency;

import io.tender.api.Rejection;

/**
 * What a flow did with one request, typed for a caller in this process (the dashboard's forms), where the API sends
 * the bytes of its {@link Answer}: done, with the view of what it made or changed; refused, with the rejection that
 * says which rule refused; or replayed, the same Idempotency-Key and request having been answered before (with that
 * first answer's status: a form sent twice acts once).
 */
public sealed interface Outcome<V> {

    record Done<V>(V view) implements Outcome<V> {
    }

    record Refused<V>(Rejection rejection) implements Outcome<V> {
    }

    record Replayed<V>(int status) implements Outcome<V> {

        /** Whether the first answer was a success (it did the work; this one did nothing more). */
        public boolean done() {
            return status < 300;
        }
    }

    /** The outcome of a request answered {@code response}: replayed, or refused by {@code refusal}, or done. */
    static <V> Outcome<V> of(StoredResponse response, V view, Rejection refusal) {
        if (response.replayed()) {
            return new Replayed<>(response.status());
        }
        return refusal != null ? new Refused<>(refusal) : new Done<>(view);
    }
}
