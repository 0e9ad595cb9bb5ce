package io.tender.settlement;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The one recovery loop: it drains full batches, but never takes the same unfinishable rows round and round. */
class JanitorTest {

    /** A kind whose claim answers the rows it still holds, {@link Janitor#BATCH} at a time; recovering finishes some. */
    private static final class Rows implements Recoverable<String> {
        final List<String> open = new ArrayList<>();
        final List<String> recovered = new ArrayList<>();
        final List<String> unfinishable = new ArrayList<>();
        int afterRuns;

        Rows(int finishable, int stuck) {
            IntStream.range(0, stuck).forEach(i -> unfinishable.add("stuck_" + i));
            open.addAll(unfinishable);
            IntStream.range(0, finishable).forEach(i -> open.add("row_" + i));
        }

        @Override
        public String name() {
            return "rows";
        }

        @Override
        public Duration interval() {
            return Duration.ofSeconds(1);
        }

        @Override
        public List<String> claim(Instant now, int limit) {
            return List.copyOf(open.subList(0, Math.min(limit, open.size())));
        }

        @Override
        public void recover(String row, Instant now) {
            recovered.add(row);
            if (!unfinishable.contains(row)) {
                open.remove(row);
            }
        }

        @Override
        public String id(String row) {
            return row;
        }

        @Override
        public void afterRun(Instant now) {
            afterRuns++;
        }
    }

    @Test
    void aRunDrainsFullBatchesUntilOneComesBackShort() {
        Rows rows = new Rows(45, 0);

        new Janitor(List.of(rows)).run(rows);

        assertThat(rows.open).isEmpty();
        assertThat(rows.recovered).hasSize(45).doesNotHaveDuplicates();
        assertThat(rows.afterRuns).isEqualTo(1);
    }

    @Test
    void aFullBatchOfRowsItCannotFinishEndsTheRunInsteadOfLoopingOnThem() {
        Rows rows = new Rows(10, Janitor.BATCH);

        new Janitor(List.of(rows)).run(rows);

        assertThat(rows.recovered).as("each stuck row tried at most twice in one run")
                .filteredOn(r -> r.startsWith("stuck_")).hasSizeLessThanOrEqualTo(2 * Janitor.BATCH);
        assertThat(rows.afterRuns).isEqualTo(1);
    }
}
