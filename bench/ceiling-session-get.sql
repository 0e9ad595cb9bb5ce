-- The ceiling of a payment session's retrieve: one pgbench "transaction" is one GET /collect/payment_sessions/{id},
-- as the service executes it now: one statement, autocommit (BENCH_CAPTURE_SQL=1 bench/run.sh:
-- raw/session-get-statements-full.txt; bench/statements-per-session.txt). The sessions are the ones the create's
-- ceiling wrote just before, renumbered by run.sh so that :k picks one at random (pgbench -D sessions=<count>), as
-- the service's retrieve run picks among its own. Not included: the API-key lookup (cached by the service).
\set k random(1, :sessions)
select * from payment_sessions where id = 'ps_' || lpad(to_hex(:k::bigint), 24, '0') and merchant_id = 'mer_bench' and mode = 'test';
