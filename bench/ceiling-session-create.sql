-- The ceiling of a payment session's create: one pgbench "transaction" is one POST /collect/payment_sessions of the
-- smallest valid session ({"amount":15000,"currency":"ZAR"}, bench/session-create.lua), as the service executes it
-- now: one transaction. Derived from a log_statement=all capture of a real create (BENCH_CAPTURE_SQL=1 bench/run.sh:
-- raw/session-create-statements-full.txt; bench/statements-per-session.txt): the same statements in the same order,
-- with values of the same sizes (the options and the event are the service's own documents with this session's ids;
-- the sealed response is random bytes of the sealed length, 759; the body hash 32 bytes).
-- Not included, as in bench/ceiling.sql: the API-key lookup (cached by the service) and the outbox relay's own
-- transactions (work the service does besides; leaving it out makes the ceiling higher, never lower).
\set n random(1, 9000000000000000000)

BEGIN;
insert into idempotency_keys
    (merchant_id, mode, idempotency_key, method, path, api_version, body_hash, state, resource_id, created_at)
values ('mer_bench', 'test', 'bench-ps-' || :n::bigint, 'POST', '/collect/payment_sessions', '2026-06-01', '\xaf987dc20bf5fef518fb03cb9740342be89e7ba09ea22aa9057c5ee648420201', 'started', null, now())
on conflict (merchant_id, mode, idempotency_key) do update set
    method = excluded.method, path = excluded.path, api_version = excluded.api_version,
    body_hash = excluded.body_hash,
    state = 'started', resource_id = excluded.resource_id, response_status = null,
    response_type = null, response_body = null, created_at = excluded.created_at,
    completed_at = null
where idempotency_keys.created_at < now() - interval '24 hours' and idempotency_keys.state = 'completed';
insert into payment_sessions (id, merchant_id, mode, checkout_session_id, type, amount, currency,
    country, status, payment_outcome, customer_id, payment_id, obligation_id, return_url,
    last_payment_error, external_reference, metadata, options, attempts, waiting_for_merchant,
    version, expires_at, created_at, updated_at, origin_kind, origin_id)
values ('ps_' || lpad(to_hex(:n::bigint), 24, '0'), 'mer_bench', 'test', 'ckt_' || lpad(to_hex(:n::bigint), 32, '0'), 'one_time', 15000, 'ZAR', 'ZA', 'active',
    'not_started', null, null, null, null, null::jsonb,
    null, null::jsonb, '{"checkout_options":{"presentation_mode":"redirect","payment_method_selection":"gateway","visible_payment_methods":["card","pay_by_bank","capitec_pay","mobile_money"]},"payment_method_options":{"card":{"capture_method":"automatic"}}}'::jsonb, 0, false, 1,
    now() + interval '1 day', now(), now(), null, null);
with event as (
    insert into outbox (id, aggregatetype, aggregateid, type, payload, merchant_id, mode, created_at)
    values ('evt_s' || lpad(to_hex(:n::bigint), 23, '0'), 'collect.payment_session', 'ps_' || lpad(to_hex(:n::bigint), 24, '0'), 'payment_session.created', ('{"specversion":"1.0","id":"' || 'evt_s' || lpad(to_hex(:n::bigint), 23, '0') || '","source":"/collect/payment_session","type":"payment_session.created","datacontenttype":"application/json","subject":"' || 'ps_' || lpad(to_hex(:n::bigint), 24, '0') || '","time":"2026-11-23T15:50:27.966Z","mode":"test","merchantid":"mer_01a20919e71e6f4cb21ed881","data":{"id":"' || 'ps_' || lpad(to_hex(:n::bigint), 24, '0') || '","type":"one_time","amount":15000,"currency":"ZAR","country":"ZA","status":"active","payment_outcome":"not_started","payment_status":"pending","checkout_session_id":"' || 'ckt_' || lpad(to_hex(:n::bigint), 32, '0') || '","session_url":"http://localhost:8099/checkout/' || 'ckt_' || lpad(to_hex(:n::bigint), 32, '0') || '","mode":"test","options":{"checkout_options":{"presentation_mode":"redirect","payment_method_selection":"gateway","visible_payment_methods":["card","pay_by_bank","capitec_pay","mobile_money"]},"payment_method_options":{"card":{"capture_method":"automatic"}}},"attempts":0,"version":1,"expires_at":"2026-11-24T15:50:27.966Z","created_at":"2026-11-23T15:50:27.966Z","updated_at":"2026-11-23T15:50:27.966Z"}}')::json, 'mer_bench', 'test', now())
    returning seq)
insert into outbox_relay (channel, seq, event_id, aggregateid)
select channel, event.seq, 'evt_s' || lpad(to_hex(:n::bigint), 23, '0'), 'ps_' || lpad(to_hex(:n::bigint), 24, '0') from event, unnest('{webhooks}'::text[]) as channel;
update idempotency_keys set state = 'completed', response_status = 201, response_type = 'application/json',
    response_body = '\x8063147893d81185a716697c8f9cba839eff9bc9d0ad65e064a685f3e54b4ccd569fcf3dcc005cf82555820ab776bc65bc7e2d9e1c8e49a559061482ca57e7f458ea3fa0287c29ae12f9a66c7e49730e57230d207df97fe46ab667cdd57701d4843765b7ba1ff4a304095c0795ef3538063595301bc66cc8e8be9961068fe50e0666987afead850df2e320d7d675af76dfefd0075ddef81af8ea1e8c7b0bc0c9723668409d065ad790c9056b0f84319b2b1c2b512231f2aa4b1486841a6b4b54b1635474ccf0d34457c6718b693cd2adcf8fe9c5b203d648397654c1090cc23dcc755f2d9b204ef264d4bb737118d3e8ffe91792fa49509659e2e69782502ed78cbe645842d944615f38d38d0995dbd659575e0c5a9e8c50150d244105f07ccea690ca58891c3371234eafabe39fb0d9a85f43e3e7f0123cdeaf9bead348a8f57b6110a9e6427ff8f08a7a073b82b3480e90c1a7c1a963762ccc52b176bcd9d72daadfe9b19963a4ab2c537611df4f983cbd70373044fe09e4108ccfd1ed39c03bf998bfc75820f8854042dc7d4df7b396c87b58d9a1df46dccc5a74f510b6b19a034c1a30b2f9ba1b8c1478f42fbda5f201ea70d74d1c6f377daf6ac7d85f865dc4cf9472029d3a25abf816cea1bfcf518a5d94dc723af05a8bfef8322d48ee80678fd27465e2ccc8aca5c0f04d3093f82e7efec57765606372115177c82cea6d4a3baf6f78244dbd184a68c24a3080a79c646483a92d2d98ffc5843a46cbe4a368b16b9c9abcbd7b35416f45475de8014cde75774fdd18c7d311364368013aa6810e46c99917c7d8fb36bed6a7ca05b6d54867963db9cc1e275573fbfca2f13a43665a0ad00f55761dc27a8fb316bcdfc8857113f0b12b8706ca956d238b1467f1d35d24ae4f0190725f74d2637a96ef6efebca96b4bcee1da8b78ae97f891054862b8dffccb6bf4c1956e1856d1816812239608f216cc8acbcf0224debab4ba6d9bb297b1269e3806f996fe4b2d49978d60cc1761f7e4453fcd739759f988daef99769b79aad4613a105804bdfdf3ebbe48baa479a0', completed_at = now()
where merchant_id = 'mer_bench' and mode = 'test' and idempotency_key = 'bench-ps-' || :n::bigint;
COMMIT;
