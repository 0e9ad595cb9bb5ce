-- The scheduler claims due periods in (due_at, subscription_id, period) order, FOR UPDATE SKIP LOCKED, a batch at a
-- time (and notices in (notice_at, subscription_id, period) order). Indexes in those orders let a claim read only the
-- rows it takes: on due_at (notice_at) alone, every claim read and sorted all the periods due at the same instant, and
-- at midnight that is all of them (bench/subscriptions.sh: 75 ms a claim with 30 000 due, the whole run quadratic).
drop index subscription_periods_due;
create index subscription_periods_due on subscription_periods (due_at, subscription_id, period)
    where status in ('scheduled', 'retrying');
drop index subscription_periods_notices;
create index subscription_periods_notices on subscription_periods (notice_at, subscription_id, period)
    where notice_at is not null;
