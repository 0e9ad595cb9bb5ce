package io.tender.settlement;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The recovery job's loop, for any aggregate: take a batch of unfinished rows (leased, so no other instance takes
 * them), finish each, and go on while batches come back full. One row's failure never stops the others; it is tried
 * again on a later run, once its lease ends.
 */
public final class RecoveryBatches {

    private static final Logger log = LoggerFactory.getLogger(RecoveryBatches.class);

    public static final int SIZE = 20;

    private RecoveryBatches() {
    }

    /** Runs batches until one comes back short. */
    public static <A> void drain(Supplier<List<A>> claim, Consumer<A> recover, Function<A, String> id) {
        while (runOnce(claim, recover, id) == SIZE) {
            // a full batch: there may be more
        }
    }

    /** One batch; returns how many rows it took. */
    public static <A> int runOnce(Supplier<List<A>> claim, Consumer<A> recover, Function<A, String> id) {
        List<A> batch = claim.get();
        for (A row : batch) {
            try {
                recover.accept(row);
            } catch (RuntimeException e) {
                log.error("Recovery of {} failed; it will be tried again", id.apply(row), e);
            }
        }
        return batch.size();
    }
}
