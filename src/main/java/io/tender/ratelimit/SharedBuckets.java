package io.tender.ratelimit;

import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import io.github.bucket4j.postgresql.PostgreSQLSelectForUpdateBasedProxyManager;
import org.springframework.stereotype.Component;

import javax.sql.DataSource;
import java.time.Duration;

/**
 * The buckets every instance shares, in the table {@code rate_limit_buckets} (migration V67) through Bucket4j's
 * PostgreSQL backend: each use of a bucket is one transaction that locks its row ({@code select ... for update}),
 * reads it, writes it and commits, so instances on one database count against one bucket. Time is each instance's
 * clock (Bucket4j's client-side clock): instances must keep their clocks in step (NTP), as they must anyway.
 *
 * <p>A bucket's row expires once the bucket would be full again, plus {@link #KEPT_AFTER_FULL} for clocks that are
 * not quite in step; {@link SharedBucketPurge} deletes expired rows, so the table holds only the addresses and keys
 * of the last minute or so.
 */
@Component
class SharedBuckets {

    static final Duration KEPT_AFTER_FULL = Duration.ofMinutes(1);

    private final PostgreSQLSelectForUpdateBasedProxyManager<String> buckets;

    SharedBuckets(DataSource dataSource) {
        this.buckets = Bucket4jPostgreSQL.selectForUpdateBasedBuilder(dataSource)
                .primaryKeyMapper(PrimaryKeyMapper.STRING)
                .table("rate_limit_buckets")
                .idColumn("id")
                .stateColumn("state")
                .expiresAtColumn("expires_at")
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEPT_AFTER_FULL))
                .build();
    }

    ProxyManager<String> buckets() {
        return buckets;
    }

    /** Deletes at most {@code batch} expired buckets; returns how many. */
    int purgeExpired(int batch) {
        return buckets.removeExpired(batch);
    }
}
