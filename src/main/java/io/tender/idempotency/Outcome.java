package io.tender.idempotency;

import io.tender.api.Rejection;

/**
 * What a flow did with one request, typed for a caller in this process (the dashboard's forms), where the API sends
 * the bytes of its {@link Answer}: done, with the view of what it made or changed; refused, with the rejection that
 * says which rule refused; or replayed, the same Idempotency-Key and request having been answered before (a form sent
 * twice acts once), with what that first answer said: its status, and its view or its problem's words.
 */
public sealed interface Outcome<V> {

    record Done<V>(V view) implements Outcome<V> {
    }

    record Refused<V>(Rejection rejection) implements Outcome<V> {
    }

    /**
     * @param view   the first answer's view, when it was a success (null when it was not, or cannot be read as one)
     * @param detail the first answer's problem in words, when it was a refusal (or null)
     */
    record Replayed<V>(int status, V view, String detail) implements Outcome<V> {

        /** Whether the first answer was a success (it did the work; this one did nothing more). */
        public boolean done() {
            return status < 300;
        }
    }

    /** This outcome with its view shown as {@code shown} shows it (a page's own reading of a module's view). */
    default <W> Outcome<W> map(java.util.function.Function<V, W> shown) {
        return switch (this) {
            case Done<V>(V view) -> new Done<>(shown.apply(view));
            case Refused<V>(Rejection rejection) -> new Refused<>(rejection);
            case Replayed<V>(int status, V view, String detail) ->
                    new Replayed<>(status, view == null ? null : shown.apply(view), detail);
        };
    }
}
