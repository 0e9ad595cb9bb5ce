package io.tender.settlement;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A kind of aggregate whose unfinished rows the {@link Janitor} finishes: redemptions, payments, and every money flow
 * after them. {@code A} is the aggregate as its repository reads it.
 */
public interface Recoverable<A> {

    /** What the log calls these rows ({@code payments}). */
    String name();

    /** How long the janitor waits between two runs over this kind. */
    Duration interval();

    /**
     * Takes up to {@code limit} unfinished rows that no request or other instance is working on, and leases them
     * ({@link LeasedRows#claim}), oldest first.
     */
    List<A> claim(Instant now, int limit);

    /**
     * Finishes one claimed row: a pending call whose outcome is unknown is asked after through its
     * {@link PendingCall}, never sent again ({@link Settlement}); once the row is final, every Idempotency-Key waiting
     * on it is completed ({@link WaitingKeys}). A row it cannot finish yet is released for a later run.
     */
    void recover(A row, Instant now);

    String id(A row);

    /** Work of this kind's own after its rows are drained (a payment session's expiry); none by default. */
    default void afterRun(Instant now) {
    }
}
