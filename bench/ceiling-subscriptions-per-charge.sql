-- The ceiling of bench/subscriptions.sh for the flow before the batching (the jar of ea12a94 to 44e0193; now:
-- bench/ceiling-subscriptions.sql): one pgbench "transaction" is one batch of the scheduler, as the service ran it
-- then (SubscriptionCharges.chargeDue), over the periods bench/subscriptions-clone.sql made due: the claim of up to
-- :batch periods in one transaction, then for each period its processor call (the sandbox's transaction) and its
-- finish (PaymentSettlement.finish with SeriesOutcomes), each a transaction of its own. The same statements in the same
-- order and the same transactions as the service's (a log_statement=all capture: bench/statements-per-charge-before.txt),
-- on a copy of the same rows, with values of the same sizes (the JSON documents are the service's own, with this
-- period's ids), in prepared mode like pgjdbc; a BEGIN travels with the statement after it, as pgjdbc sends it
-- (\startpipeline), and every other statement is its own round trip, as in the service.
--
-- pgbench has no loops: bench/statements.py --expand BATCH writes each "-- @repeat" section BATCH times, @k@ replaced
-- by 1 … BATCH (the period's place in the claim: its variables are c<k>_*, its payment pay<k>). The claim returns
-- the claimed periods' subscription ids as one array (the service reads the rows); each period then reads its own.
-- Variables from the command line (-D): batch, token (the sandbox's token of the one saved card: the service opens it
-- from payment_methods.processor_token_sealed, which is read here too).
--
-- Left out: the outbox relay's transactions (each instance relays the payment.succeeded events: work the service does
-- besides), the scheduler's other sweeps (notices, ended mandates: one statement each per run), the JDBC driver's type
-- lookups on a new connection. Leaving them out can only make the ceiling higher.

-- 1. The claim (SubscriptionCharges.claim), one transaction: the due periods, locked; per period its subscription,
--    mandate and saved method read, its payment inserted pending with its processor call, the period moved to
--    charging. 2 + 6 × batch round trips, one commit; and one more here, as pgbench cannot send the BEGIN with the
--    claim (\gset is not allowed in a pipeline).
BEGIN;
select array_agg(subscription_id order by due_at, subscription_id, period) as claimed from (
  select * from subscription_periods
  where status in ('scheduled', 'retrying') and due_at <= now() and notice_at is null
    and (cast(null as text) is null or subscription_id = null)
  order by due_at, subscription_id, period limit :batch for update skip locked) p \gset
-- @repeat
select * from subscriptions where id = (:claimed::text[])[@k@] \gset c@k@_
select * from mandates where id = :c@k@_mandate_id::text \gset m_
select processor_token_sealed from payment_methods where id = :m_payment_method_id::text;
select * from payment_methods where id = :m_payment_method_id::text;
\set pay@k@ random(1, 9000000000000000000)
insert into payments (id, merchant_id, mode, status, intent, capture_method, amount, currency, country, authorized_amount, authorization_expires_at, paid_amount, voided_amount, payment_method_details, card_fingerprint, external_reference, last_payment_error, metadata, payment_session_id, customer_id, obligation_id, version, operations, revision, lease_until, created_at, updated_at, payment_method_id, mandate_id, charge_date, subscription_id, subscription_period, period_attempt, off_session, will_retry, next_retry_at)
values ('pay_' || lpad(to_hex(:pay@k@::bigint), 24, '0'), :c@k@_merchant_id::text, 'test', 'pending', 'payment', 'automatic', 9900, 'ZAR', 'ZA', 0, null, 0, 0, '{"card":{"bin":"424242","type":"CREDIT","last4":"4242","scheme":"VISA","exp_year":2028,"exp_month":12},"type":"card"}'::jsonb, 'fp_f00e24015834db4a74b75026c86e08b7', null, null::jsonb, null::jsonb, null, :c@k@_customer_id::text, null, 1, ('[{"id":"op_' || lpad(to_hex(:pay@k@::bigint), 24, '0') || '","type":"AUTHORIZE","status":"PENDING","amount":9900,"processor_key":"' || :c@k@_id::text || ':1:' || 'charge","created_at":"2026-11-27T19:57:21.197Z"}]')::jsonb, 1, now() + interval '1 minute', now(), now(), :m_payment_method_id::text, :c@k@_mandate_id::text, current_date, :c@k@_id::text, 1, 1, true, null, null);
update subscription_periods set status = 'charging', attempts = 1, retries_left = 3, due_at = :c@k@_next_charge_at::timestamptz, notice_at = null, first_declined_on = null, payment_id = 'pay_' || lpad(to_hex(:pay@k@::bigint), 24, '0'), updated_at = now() where subscription_id = :c@k@_id::text and period = 1;
-- @end-repeat
COMMIT;

-- @repeat
-- 2. The processor call (SandboxProcessor.authorize of a kept card), a transaction of its own: the key's lock (with
--    the BEGIN), an earlier answer, the kept card, the answer recorded; the commit. 5 round trips.
\startpipeline
BEGIN;
select pg_advisory_xact_lock(hashtextextended(:c@k@_id::text || ':1:' || 'charge', 1));
\endpipeline
select * from sandbox_processor_operations where operation_key = :c@k@_id::text || ':1:' || 'charge';
select * from sandbox_processor_methods where token = :token::text;
insert into sandbox_processor_operations (operation_key, kind, authorization_key, amount, currency, outcome, approve_at, funding, keeps_card, created_at)
values (:c@k@_id::text || ':1:' || 'charge', 'sale', null, 9900, 'ZAR', ('{"result":"approved","amount":9900,"currency":"ZAR","funding":"CREDIT","reference":{"processor_reference":"sbx_' || substr(lpad(to_hex(:pay@k@::bigint), 24, '0'), 1, 24) || '"}}')::jsonb, null, null, null, now()) on conflict (operation_key) do nothing;
COMMIT;

-- 3. The finish (PaymentSettlement.finish, SeriesOutcomes.settled), a transaction of its own: the mandate and the
--    subscription locked (with the BEGIN), the period read; the mandate counted, the period paid, the next one
--    inserted, the subscription moved, the payment written (conditional on its revision), payment.succeeded appended
--    with its relay row, the Idempotency-Keys waiting on the payment looked up; the commit. 11 round trips.
\startpipeline
BEGIN;
select * from mandates where id = :c@k@_mandate_id::text for update;
\endpipeline
select * from subscriptions where id = :c@k@_id::text for update;
select * from subscription_periods where subscription_id = :c@k@_id::text and period = 1;
update mandates set status = 'active', payments_count = 2, installments_charged = 0, version = 2, updated_at = now(), cancelled_at = null where id = :c@k@_mandate_id::text;
update subscription_periods set status = 'paid', attempts = 1, retries_left = 3, due_at = :c@k@_next_charge_at::timestamptz, notice_at = null, first_declined_on = null, payment_id = 'pay_' || lpad(to_hex(:pay@k@::bigint), 24, '0'), updated_at = now() where subscription_id = :c@k@_id::text and period = 1;
insert into subscription_periods (subscription_id, period, merchant_id, mode, charge_date, amount, status, attempts, retries_left, due_at, notice_at, first_declined_on, payment_id, updated_at)
values (:c@k@_id::text, 2, :c@k@_merchant_id::text, 'test', current_date + 30, 9900, 'scheduled', 0, 3, now() + interval '30 days', null, null, null, now());
update subscriptions set status = 'active', latest_payment_id = 'pay_' || lpad(to_hex(:pay@k@::bigint), 24, '0'), clock_date = null, current_period_start = current_date, current_period_end = current_date + 30, next_charge_at = now() + interval '30 days', version = 2, updated_at = now(), cancelled_at = null where id = :c@k@_id::text;
update payments set status = 'succeeded', authorized_amount = 9900, authorization_expires_at = null, paid_amount = 9900, voided_amount = 0, payment_method_details = '{"card":{"bin":"424242","type":"CREDIT","last4":"4242","scheme":"VISA","exp_year":2028,"exp_month":12},"type":"card"}'::jsonb, last_payment_error = null::jsonb, metadata = null::jsonb, payment_method_id = :m_payment_method_id::text, version = version + 1, operations = ('[{"id":"op_' || lpad(to_hex(:pay@k@::bigint), 24, '0') || '","type":"AUTHORIZE","status":"SUCCEEDED","amount":9900,"processor_key":"' || :c@k@_id::text || ':1:' || 'charge","reference":{"processor_reference":"sbx_' || lpad(to_hex(:pay@k@::bigint), 24, '0') || '"},"created_at":"2026-11-27T19:57:21.197Z"}]')::jsonb, mandate_id = :c@k@_mandate_id::text, charge_date = current_date, will_retry = null, next_retry_at = null, revision = revision + 1, lease_until = null, updated_at = now() where id = 'pay_' || lpad(to_hex(:pay@k@::bigint), 24, '0') and revision = 1;
with event as (insert into outbox (id, aggregatetype, aggregateid, type, payload, merchant_id, mode, created_at)
values ('evt_' || lpad(to_hex(:pay@k@::bigint), 24, '0'), 'collect.payment', 'pay_' || lpad(to_hex(:pay@k@::bigint), 24, '0'), 'payment.succeeded', ('{"specversion":"1.0","id":"evt_' || lpad(to_hex(:pay@k@::bigint), 24, '0') || '","source":"/collect/payment","type":"payment.succeeded","datacontenttype":"application/json","subject":"pay_' || lpad(to_hex(:pay@k@::bigint), 24, '0') || '","time":"2026-11-27T19:57:21.823Z","merchantid":"' || :c@k@_merchant_id::text || '","mode":"test","data":{"id":"pay_' || lpad(to_hex(:pay@k@::bigint), 24, '0') || '","status":"succeeded","amount":9900,"currency":"ZAR","country":"ZA","mode":"test","intent":"payment","capture_method":"automatic","authorized_amount":9900,"paid_amount":9900,"voided_amount":0,"refunded_amount":0,"payment_method_details":{"card":{"bin":"424242","type":"CREDIT","last4":"4242","scheme":"VISA","exp_year":2028,"exp_month":12},"type":"card"},"payment_method_id":"' || :m_payment_method_id::text || '","customer_id":"' || :c@k@_customer_id::text || '","mandate_id":"' || :c@k@_mandate_id::text || '","subscription_id":"' || :c@k@_id::text || '","version":2,"created_at":"2026-11-27T19:57:21.197Z","updated_at":"2026-11-27T19:57:21.823Z"}}')::json, :c@k@_merchant_id::text, 'test', now())
returning seq)
insert into outbox_relay (channel, seq, event_id, aggregateid) select channel, event.seq, 'evt_' || lpad(to_hex(:pay@k@::bigint), 24, '0'), 'pay_' || lpad(to_hex(:pay@k@::bigint), 24, '0') from event, unnest('{webhooks}'::text[]) as channel;
select idempotency_key, method, path from idempotency_keys where merchant_id = :c@k@_merchant_id::text and mode = 'test' and resource_id = 'pay_' || lpad(to_hex(:pay@k@::bigint), 24, '0') and state = 'started';
COMMIT;
-- @end-repeat
