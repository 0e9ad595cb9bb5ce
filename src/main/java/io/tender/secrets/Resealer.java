package io.tender.secrets;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * During a master key rotation ({@code TENDER_MASTER_KEY_PREVIOUS} set) seals every value that is not yet under the
 * current key again under it, in batches, and says how many it did and when none are left: then the previous key
 * can be dropped. Rows are taken with {@code FOR UPDATE SKIP LOCKED}, so any number of instances may run it at once
 * without doing the same row twice, and a row the service itself is writing (always under the current key) is left
 * to the next pass.
 */
@Component
class Resealer implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(Resealer.class);

    /** What one run did, and how many values are still under another key after it. */
    record Run(long resealed, long unreadable, long left) {
    }

    private final JdbcClient jdbc;
    private final TransactionTemplate tx;
    private final SecretBox box;
    private final MasterKey masterKey;
    private final List<SealedColumn> columns;
    private final SecretSettings settings;
    private final int batchSize;
    private volatile boolean finished;

    Resealer(JdbcClient jdbc, TransactionTemplate tx, SecretBox box, MasterKey masterKey, List<SealedColumns> owners,
             SecretSettings settings) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.box = box;
        this.masterKey = masterKey;
        this.columns = owners.stream().flatMap(o -> o.sealedColumns().stream()).toList();
        this.settings = settings;
        this.batchSize = settings.resealBatchSize();
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(
                new FixedDelayTask(this::reseal, settings.resealInterval(), settings.resealDelay()));
    }

    void reseal() {
        if (!masterKey.rotating() || finished) {
            return;
        }
        Run run = run();
        if (run.left() == 0) {
            finished = true;
            log.info("Master key rotation: re-sealed {} values; none is left under the previous master key, "
                    + "TENDER_MASTER_KEY_PREVIOUS can be removed", run.resealed());
        } else if (run.resealed() == 0 && run.unreadable() > 0) {
            finished = true;
            log.warn("Master key rotation: {} values are left that open under neither TENDER_MASTER_KEY nor "
                    + "TENDER_MASTER_KEY_PREVIOUS (see the warnings above); stopped re-sealing", run.left());
        } else {
            log.info("Master key rotation: re-sealed {} values under the new master key; {} left, trying again later",
                    run.resealed(), run.left());
        }
    }

    /** One pass over every sealed column, then a count of what is still not under the current key. */
    Run run() {
        long resealed = 0;
        long unreadable = 0;
        for (SealedColumn column : columns) {
            long[] pass = pass(column);
            resealed += pass[0];
            unreadable += pass[1];
        }
        long left = 0;
        for (SealedColumn column : columns) {
            left += jdbc.sql("select count(*) from " + column.table() + " where " + notCurrent(column))
                    .param(box.currentPrefix()).query(Long.class).single();
        }
        return new Run(resealed, unreadable, left);
    }

    /** Walks the table in primary key order, a batch per transaction; returns {re-sealed, unreadable}. */
    private long[] pass(SealedColumn column) {
        long[] counts = new long[2];
        String keys = String.join(", ", column.keyColumns());
        String after = "(" + keys + ") > (" + column.keyColumns().stream().map(k -> "?").collect(Collectors.joining(", ")) + ")";
        String update = "update " + column.table() + " set " + column.column() + " = ? where "
                + column.keyColumns().stream().map(k -> k + " = ?").collect(Collectors.joining(" and "));
        List<String> last = null;
        int found;
        do {
            List<String> from = last;
            List<List<String>> batchKeys = tx.execute(status -> {
                List<Object> params = new ArrayList<>();
                params.add(box.currentPrefix());
                if (from != null) {
                    params.addAll(from);
                }
                var rows = jdbc.sql("select " + keys + ", " + column.column() + " as sealed from " + column.table()
                                + " where " + notCurrent(column) + (from == null ? "" : " and " + after)
                                + " order by " + keys + " limit " + batchSize + " for update skip locked")
                        .params(params)
                        .query((rs, i) -> {
                            List<String> key = new ArrayList<>();
                            for (String k : column.keyColumns()) {
                                key.add(rs.getString(k));
                            }
                            return new Row(key, rs.getBytes("sealed"));
                        })
                        .list();
                for (Row row : rows) {
                    byte[] plain;
                    try {
                        plain = box.open(row.sealed(), column.context().apply(row.key()));
                    } catch (IllegalStateException e) {
                        counts[1]++;
                        log.warn("Master key rotation: a value in {}.{} (row {}) did not open: {}", column.table(),
                                column.column(), row.key(), e.getMessage());
                        continue;
                    }
                    List<Object> values = new ArrayList<>();
                    values.add(box.seal(plain, column.context().apply(row.key())));
                    values.addAll(row.key());
                    jdbc.sql(update).params(values).update();
                    counts[0]++;
                }
                return rows.stream().map(Row::key).toList();
            });
            found = batchKeys.size();
            if (found > 0) {
                last = batchKeys.getLast();
            }
        } while (found == batchSize);
        return counts;
    }

    private static String notCurrent(SealedColumn column) {
        return column.column() + " is not null and substring(" + column.column() + " from 1 for "
                + SecretBox.CURRENT_PREFIX_BYTES + ") <> ?";
    }

    private record Row(List<String> key, byte[] sealed) {
    }
}
