package io.tender.database;

import java.util.List;
import java.util.Optional;

/** What the statements of one round trip answered, in the order they were sent. */
public record Answers(List<Object> answers) {

    /** The update count of statement {@code index} (0 for a statement that changes nothing, such as a lock). */
    public int count(int index) {
        return (Integer) answers.get(index);
    }

    /** The rows query {@code index} returned, read by its row mapper. */
    @SuppressWarnings("unchecked")
    public <T> List<T> rows(int index) {
        return (List<T>) answers.get(index);
    }

    /** The one row query {@code index} returned, if any. */
    public <T> Optional<T> row(int index) {
        List<T> rows = rows(index);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.getFirst());
    }
}
