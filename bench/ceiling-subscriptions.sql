-- The ceiling of bench/subscriptions.sh: one pgbench "transaction" is one batch of the scheduler, as the service runs
-- it now (SubscriptionCharges.chargeDue), over the periods bench/subscriptions-clone.sql made due: the claim of up to
-- :batch periods in one transaction, each period's processor call (the sandbox's transaction of its own), and the
-- batch's answers written in one transaction (PaymentSettlement.finishAll with SeriesOutcomes.settledAll). The same
-- statements in the same order and the same transactions as the service's (a log_statement=all capture:
-- bench/statements-per-charge.txt), on a copy of the same rows, with values of the same sizes (the JSON documents are
-- the service's own, with this period's ids), in prepared mode like pgjdbc. A round trip of the service is one here:
-- a JDBC batch (the same statement for every period, one Sync) or RoundTrips (several statements, one Sync) is a
-- pgbench pipeline (\startpipeline … \endpipeline), and a BEGIN travels with the statement after it, as pgjdbc sends
-- it. bench/ceiling-subscriptions-per-charge.sql is the flow before the batching (two transactions per period).
--
-- pgbench has no loops: bench/statements.py --expand BATCH writes each "-- @repeat" section BATCH times, @k@ replaced
-- by 1 … BATCH (the period's place in the batch), or, for "-- @repeat ,", once with its copies joined by commas.
-- Where the service reads rows, pgbench reads the same rows and keeps what it needs of them in variables: a query's
-- rows aggregated into arrays and unpacked into one variable per period (\gset takes one row). Each period's payment
-- id is made from its subscription's id (pay_ and 24 hex digits of an md5), so the finish can name the batch's
-- payments from the claim's array. Variables from the command line (-D): batch, token (the sandbox's token of the one
-- saved card: the service opens it from payment_methods.processor_token_sealed, which is read here too).
--
-- Left out: the outbox relay's transactions (each instance relays the payment.succeeded events: work the service does
-- besides), the scheduler's other sweeps (notices, ended mandates: one statement each per run), the JDBC driver's type
-- lookups on a new connection. Leaving them out can only make the ceiling higher.

-- 1. The claim (SubscriptionCharges.claim), one transaction: the due periods of the modes with a processor, locked;
--    a savepoint (the batch is started inside one, so that a batch that fails is started again a period at a time);
--    their subscriptions, locked unless held (SKIP LOCKED), their mandates and saved methods, a query each; the
--    payments inserted pending with their processor calls (one round trip), the periods moved to charging (one round
--    trip); the savepoint released; the commit. 9 round trips per batch, and one more here: pgbench cannot send the
--    BEGIN with the claim (\gset is not allowed in a pipeline).
BEGIN;
select array_agg(subscription_id order by subscription_id) as claimed from (
  select * from subscription_periods
  where status in ('scheduled', 'retrying') and due_at <= now() and notice_at is null
    and mode = any(cast('{test}' as text[]))
    and (cast(null as text) is null or subscription_id = null)
  order by due_at, subscription_id, period limit :batch for update skip locked) p \gset
SAVEPOINT SAVEPOINT_1;
select m as mandates,
-- @repeat ,
  s[@k@] as s@k@, m[@k@] as m@k@, c[@k@] as c@k@, mer[@k@] as mer@k@, nx[@k@] as nx@k@
-- @end-repeat
from (select array_agg(id order by id) s, array_agg(mandate_id order by id) m, array_agg(customer_id order by id) c,
        array_agg(merchant_id order by id) mer, array_agg(next_charge_at order by id) nx
      from (select * from subscriptions where id = any(:claimed::text[]) order by id for update skip locked) x) y \gset
select array_agg(distinct payment_method_id) as methods, min(payment_method_id) as method from (
  select * from mandates where id = any(:mandates::text[])) m \gset
select * from payment_methods where id = any(:methods::text[]);
\startpipeline
-- @repeat
insert into payments (id, merchant_id, mode, status, intent, capture_method, amount, currency, country, authorized_amount, authorization_expires_at, paid_amount, voided_amount, payment_method_details, card_fingerprint, external_reference, last_payment_error, metadata, payment_session_id, customer_id, obligation_id, version, operations, revision, lease_until, created_at, updated_at, payment_method_id, mandate_id, charge_date, subscription_id, subscription_period, period_attempt, off_session, will_retry, next_retry_at)
values ('pay_' || substr(md5(:s@k@::text || '/1'), 1, 24), :mer@k@::text, 'test', 'pending', 'payment', 'automatic', 9900, 'ZAR', 'ZA', 0, null, 0, 0, '{"card":{"bin":"424242","type":"CREDIT","last4":"4242","scheme":"VISA","exp_year":2028,"exp_month":12},"type":"card"}'::jsonb, 'fp_f00e24015834db4a74b75026c86e08b7', null, null::jsonb, null::jsonb, null, :c@k@::text, null, 1, ('[{"id":"op_' || substr(md5(:s@k@::text || '/op'), 1, 24) || '","type":"AUTHORIZE","status":"PENDING","amount":9900,"processor_key":"' || :s@k@::text || ':1:' || 'charge","created_at":"2026-11-27T19:57:21.197Z"}]')::jsonb, 1, now() + interval '1 minute', now(), now(), :method::text, :m@k@::text, current_date, :s@k@::text, 1, 1, true, null, null);
-- @end-repeat
\endpipeline
\startpipeline
-- @repeat
update subscription_periods set status = 'charging', attempts = 1, retries_left = 3, due_at = :nx@k@::timestamptz, notice_at = null, first_declined_on = null, payment_id = 'pay_' || substr(md5(:s@k@::text || '/1'), 1, 24), updated_at = now() where subscription_id = :s@k@::text and period = 1;
-- @end-repeat
\endpipeline
RELEASE SAVEPOINT SAVEPOINT_1;
COMMIT;

-- @repeat
-- 2. The processor call (SandboxProcessorLedger.chargeKeptOnce), a transaction of its own: the key's lock, an earlier
--    answer and the kept card (with the BEGIN) in one round trip; the answer recorded and the commit in another.
\startpipeline
BEGIN;
select pg_advisory_xact_lock(hashtextextended(:s@k@::text || ':1:' || 'charge', 1));
select * from sandbox_processor_operations where operation_key = :s@k@::text || ':1:' || 'charge';
select * from sandbox_processor_methods where token = :token::text;
\endpipeline
\startpipeline
insert into sandbox_processor_operations (operation_key, kind, authorization_key, amount, currency, outcome, approve_at, funding, keeps_card, created_at)
values (:s@k@::text || ':1:' || 'charge', 'sale', null, 9900, 'ZAR', ('{"result":"approved","amount":9900,"currency":"ZAR","funding":"CREDIT","reference":{"processor_reference":"sbx_' || substr(md5(:s@k@::text || '/ref'), 1, 24) || '"}}')::jsonb, null, null, null, now()) on conflict (operation_key) do nothing;
COMMIT;
\endpipeline
-- @end-repeat

-- 3. The batch's answers (PaymentSettlement.finishAll, SeriesOutcomes.settledAll), one transaction: the mandates
--    locked (with the BEGIN), the subscriptions locked, the periods read, the payments' revisions locked; then each
--    table written in one round trip: the mandates counted, the periods paid, the next periods inserted, the
--    subscriptions moved, the payments written (conditional on their revisions), payment.succeeded appended with its
--    relay row; the Idempotency-Keys waiting on the payments looked up; the commit. 12 round trips per batch.
\startpipeline
BEGIN;
select * from mandates where id = any(:mandates::text[]) order by id for update;
\endpipeline
select * from subscriptions where id = any(:claimed::text[]) order by id for update;
select * from subscription_periods where (subscription_id, period) in (select * from unnest(:claimed::text[], array_fill(1, array[:batch::int])));
select id, revision from payments where id = any(array(select 'pay_' || substr(md5(s || '/1'), 1, 24) from unnest(:claimed::text[]) s)) order by id for update;
\startpipeline
-- @repeat
update mandates set status = 'active', payments_count = 2, installments_charged = 0, version = 2, updated_at = now(), cancelled_at = null where id = :m@k@::text;
-- @end-repeat
\endpipeline
\startpipeline
-- @repeat
update subscription_periods set status = 'paid', attempts = 1, retries_left = 3, due_at = :nx@k@::timestamptz, notice_at = null, first_declined_on = null, payment_id = 'pay_' || substr(md5(:s@k@::text || '/1'), 1, 24), updated_at = now() where subscription_id = :s@k@::text and period = 1;
-- @end-repeat
\endpipeline
\startpipeline
-- @repeat
insert into subscription_periods (subscription_id, period, merchant_id, mode, charge_date, amount, status, attempts, retries_left, due_at, notice_at, first_declined_on, payment_id, updated_at)
values (:s@k@::text, 2, :mer@k@::text, 'test', current_date + 30, 9900, 'scheduled', 0, 3, now() + interval '30 days', null, null, null, now());
-- @end-repeat
\endpipeline
\startpipeline
-- @repeat
update subscriptions set status = 'active', latest_payment_id = 'pay_' || substr(md5(:s@k@::text || '/1'), 1, 24), clock_date = null, current_period_start = current_date, current_period_end = current_date + 30, next_charge_at = now() + interval '30 days', version = 2, updated_at = now(), cancelled_at = null where id = :s@k@::text;
-- @end-repeat
\endpipeline
\startpipeline
-- @repeat
update payments set status = 'succeeded', authorized_amount = 9900, authorization_expires_at = null, paid_amount = 9900, voided_amount = 0, payment_method_details = '{"card":{"bin":"424242","type":"CREDIT","last4":"4242","scheme":"VISA","exp_year":2028,"exp_month":12},"type":"card"}'::jsonb, last_payment_error = null::jsonb, metadata = null::jsonb, payment_method_id = :method::text, version = version + 1, operations = ('[{"id":"op_' || substr(md5(:s@k@::text || '/op'), 1, 24) || '","type":"AUTHORIZE","status":"SUCCEEDED","amount":9900,"processor_key":"' || :s@k@::text || ':1:' || 'charge","reference":{"processor_reference":"sbx_' || substr(md5(:s@k@::text || '/ref'), 1, 24) || '"},"created_at":"2026-11-27T19:57:21.197Z"}]')::jsonb, mandate_id = :m@k@::text, charge_date = current_date, will_retry = null, next_retry_at = null, revision = revision + 1, lease_until = null, updated_at = now() where id = 'pay_' || substr(md5(:s@k@::text || '/1'), 1, 24) and revision = 1;
-- @end-repeat
\endpipeline
\startpipeline
-- @repeat
with event as (insert into outbox (id, aggregatetype, aggregateid, type, payload, merchant_id, mode, created_at)
values ('evt_' || substr(md5(:s@k@::text || '/evt'), 1, 24), 'collect.payment', 'pay_' || substr(md5(:s@k@::text || '/1'), 1, 24), 'payment.succeeded', ('{"specversion":"1.0","id":"evt_' || substr(md5(:s@k@::text || '/evt'), 1, 24) || '","source":"/collect/payment","type":"payment.succeeded","datacontenttype":"application/json","subject":"pay_' || substr(md5(:s@k@::text || '/1'), 1, 24) || '","time":"2026-11-27T19:57:21.823Z","merchantid":"' || :mer@k@::text || '","mode":"test","data":{"id":"pay_' || substr(md5(:s@k@::text || '/1'), 1, 24) || '","status":"succeeded","amount":9900,"currency":"ZAR","country":"ZA","mode":"test","intent":"payment","capture_method":"automatic","authorized_amount":9900,"paid_amount":9900,"voided_amount":0,"refunded_amount":0,"payment_method_details":{"card":{"bin":"424242","type":"CREDIT","last4":"4242","scheme":"VISA","exp_year":2028,"exp_month":12},"type":"card"},"payment_method_id":"' || :method::text || '","customer_id":"' || :c@k@::text || '","mandate_id":"' || :m@k@::text || '","subscription_id":"' || :s@k@::text || '","version":2,"created_at":"2026-11-27T19:57:21.197Z","updated_at":"2026-11-27T19:57:21.823Z"}}')::json, :mer@k@::text, 'test', now())
returning seq)
insert into outbox_relay (channel, seq, event_id, aggregateid) select channel, event.seq, 'evt_' || substr(md5(:s@k@::text || '/evt'), 1, 24), 'pay_' || substr(md5(:s@k@::text || '/1'), 1, 24) from event, unnest('{webhooks}'::text[]) as channel;
-- @end-repeat
\endpipeline
select merchant_id, mode, resource_id, idempotency_key, method, path from idempotency_keys where resource_id = any(array(select 'pay_' || substr(md5(s || '/1'), 1, 24) from unnest(:claimed::text[]) s)) and state = 'started';
COMMIT;
