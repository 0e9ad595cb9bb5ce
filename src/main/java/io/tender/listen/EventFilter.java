package io.tender.listen;

import io.tender.event.EventTypes;

import java.util.ArrayList;
import java.util.List;

/**
 * Which event types {@code --events} forwards: exact types ({@code payment.succeeded}) and prefixes
 * ({@code redemption.*}); every type when none is given. A name that matches no type the service emits is refused,
 * so a typo does not silently forward nothing.
 */
record EventFilter(List<String> patterns) {

    static final EventFilter ALL = new EventFilter(List.of());

    /** Parses {@code a,b,prefix.*}; throws with a message naming the first pattern that matches no known type. */
    static EventFilter parse(String list) {
        List<String> patterns = new ArrayList<>();
        for (String part : list.split(",")) {
            String pattern = part.strip();
            if (pattern.isEmpty()) {
                continue;
            }
            if (pattern.equals(EventTypes.WILDCARD)) {
                return ALL;
            }
            EventFilter one = new EventFilter(List.of(pattern));
            if (EventTypes.ALL.stream().noneMatch(one::matches)) {
                throw new IllegalArgumentException("--events: " + pattern + " is not an event type (for example "
                        + "redemption.confirmed, or redemption.* for all of one kind; see docs/events.md)");
            }
            patterns.add(pattern);
        }
        if (patterns.isEmpty()) {
            throw new IllegalArgumentException("--events: name at least one event type, or leave it out for all");
        }
        return new EventFilter(List.copyOf(patterns));
    }

    boolean matches(String type) {
        if (patterns.isEmpty()) {
            return true;
        }
        for (String pattern : patterns) {
            if (pattern.endsWith(".*") ? type.startsWith(pattern.substring(0, pattern.length() - 1))
                    : type.equals(pattern)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return patterns.isEmpty() ? "all event types" : String.join(", ", patterns);
    }
}
