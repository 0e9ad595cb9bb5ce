-- The token buckets that hold across instances (decisions §12): failed authentications per client address and balance
-- lookups per API key, one row per bucket, read and written by Bucket4j's PostgreSQL backend (select for update) in
-- io.tender.ratelimit.SharedBuckets. id is the limit's name and its address or key id ('failed-auth:203.0.113.7');
-- state is Bucket4j's serialized bucket; expires_at (epoch milliseconds) is when the bucket is full again plus a margin,
-- after which deleting it changes nothing, and SharedBucketPurge does.
create table rate_limit_buckets (
    id         text primary key,
    state      bytea,
    -- Bucket4j first inserts an empty row and writes the bucket in the next transaction: a row left empty (an instance
    -- stopped in between) expires a minute after it was made.
    expires_at bigint not null default ((extract(epoch from clock_timestamp()) * 1000)::bigint + 60000)
);
create index rate_limit_buckets_by_expiry on rate_limit_buckets (expires_at);
