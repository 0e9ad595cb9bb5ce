-- The ceiling: one pgbench "transaction" is one redemption, as the service executes it now: POST /collect/redemptions
-- of a full-value one_voucher PIN on the hold-less sandbox provider. The same statements in the same order and the
-- same round trips as the service (docs/PERFORMANCE.md, step 8): statements the service sends together
-- (database.RoundTrips: one message train, one Sync) are one pgbench pipeline here (\startpipeline … \endpipeline),
-- and a BEGIN travels with the statement after it, as pgjdbc sends it. Ten round trips. Values of the same size
-- (sealed values are random bytes of the sealed lengths; JSON documents are the service's own, with this
-- redemption's ids). The sandbox's two transactions commit without waiting for the disk, as in the service
-- (SandboxVoucherLedger; step 7). Earlier flows, for the earlier results: ceiling-baseline.sql (five commits),
-- ceiling-4-commits.sql (four, two statements per event), ceiling-sync-sandbox.sql (every commit waiting for the
-- disk), ceiling-one-statement-per-trip.sql (steps 5-7: 21 round trips).
-- Not included: the API-key lookup (cached by the service), and the outbox relay's own transactions (work the
-- service does besides; leaving it out makes the ceiling higher, never lower).
\set n random(1, 9000000000000000000)

-- 1. IdempotentRequests.start: claim the key (with the BEGIN); then the draft with its pending reserve and
--    redemption.created in one round trip; then the commit. 3 round trips.
\startpipeline
BEGIN;
insert into idempotency_keys (merchant_id, mode, idempotency_key, method, path, api_version, body_hash, state, resource_id, created_at)
values ('mer_bench', 'test', 'bench-' || :n::bigint, 'POST', '/collect/redemptions', '2026-06-01', '\x435aec3d6b3eacf9f3c391fc8b0bcbf29ecb9549dae52af948942051e1ab4af4', 'started', 'rdm_' || lpad(to_hex(:n::bigint), 24, '0'), now())
on conflict (merchant_id, mode, idempotency_key) do update set
    method = excluded.method, path = excluded.path, api_version = excluded.api_version,
    body_hash = excluded.body_hash,
    state = 'started', resource_id = excluded.resource_id, response_status = null,
    response_type = null, response_body = null, created_at = excluded.created_at,
    completed_at = null
where idempotency_keys.created_at < now() - interval '24 hours' and idempotency_keys.state = 'completed';
\endpipeline
\startpipeline
insert into redemptions (id, merchant_id, mode, type, status, version, amount, currency, reserved_amount, redeemed_amount, reversed_amount, source_masked, source_sealed, redemption_options, related_ids, metadata, external_reference, provider_reference, operations, change_voucher_sealed, last_error, idempotency_key, revision, lease_until, created_at, updated_at)
values ('rdm_' || lpad(to_hex(:n::bigint), 24, '0'), 'mer_bench', 'test', 'vouchers.one_voucher', 'draft', 1, null, 'ZAR', null, null, 0, '{"pin":"************0007"}'::jsonb, '\xb5ed87861d9b009bef609a7cf1ce12066614cc2d26f43139c44f498dd208d2376968ca67d5c2a42c7d063cddea1cb6b238ef10e8d743ac', null, '[]'::jsonb, null, null, null, ('[{"id":"op_01a2015a77771c7eebd1fc96","type":"RESERVE","status":"PENDING","amount": 0,"created_at":"2026-11-22T03.43.55.766Z","provider_key":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || ':' || 'reserve"}]')::jsonb, null, null, 'bench-' || :n::bigint, 1, now() + interval '1 minute', now(), now());
with event as (insert into outbox (id, aggregatetype, aggregateid, type, payload, merchant_id, mode, created_at)
values ('evt_c' || lpad(to_hex(:n::bigint), 24, '0'), 'collect.redemption', 'rdm_' || lpad(to_hex(:n::bigint), 24, '0'), 'redemption.created', ('{"specversion":"1.0","id":"evt_c' || lpad(to_hex(:n::bigint), 24, '0') || '","source":"/collect/redemption","type":"redemption.created","datacontenttype":"application/json","subject":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || '","time":"2026-11-22T03.43.55.655Z","mode":"test","merchantid":"mer_01a2015a5a1222f3d69d41e2","data":{"id":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || '","status":"draft","version": 1,"type":"vouchers.one_voucher","amount": 0,"reversed_amount": 0,"currency":"ZAR","source":{"pin":"************0007"},"operations":[],"related_ids":[],"created_at":"2026-11-22T03.43.55.655Z","updated_at":"2026-11-22T03.43.55.655Z"}}')::json, 'mer_bench', 'test', now())
returning seq)
insert into outbox_relay (channel, seq, event_id, aggregateid) select channel, event.seq, 'evt_c' || lpad(to_hex(:n::bigint), 24, '0'), 'rdm_' || lpad(to_hex(:n::bigint), 24, '0') from event, unnest('{webhooks}'::text[]) as channel;
\endpipeline
COMMIT;

-- 2. The sandbox provider's reserve, a transaction of its own (SandboxVoucherLedger.once) that does not wait for the
--    disk: BEGIN, the lock, the earlier answer and the voucher in one round trip; the answer and COMMIT in another.
\startpipeline
BEGIN;
select pg_advisory_xact_lock(hashtextextended('rdm_' || lpad(to_hex(:n::bigint), 24, '0') || ':' || 'reserve', 0)), set_config('synchronous_commit', 'off', true);
select type, kind, voucher_key, amount, outcome from sandbox_operations where operation_key = 'rdm_' || lpad(to_hex(:n::bigint), 24, '0') || ':' || 'reserve';
select balance, currency, state from sandbox_vouchers where voucher_key = decode(lpad(to_hex(:n::bigint), 64, '0'), 'hex');
\endpipeline
\startpipeline
insert into sandbox_operations (operation_key, type, kind, voucher_key, amount, outcome, created_at)
values ('rdm_' || lpad(to_hex(:n::bigint), 24, '0') || ':' || 'reserve', 'vouchers.one_voucher', 'reserve', decode(lpad(to_hex(:n::bigint), 64, '0'), 'hex'), 10000, '\x5f84566d08d52d994ba43f41fa24ce2adc90a86f37842a50b29dc43a7860d1ccecb523f04b914beb691ed6f10309258a2aeaacd4d01fb4dbd523b7adb6164f386a19256a4f6b7f27f2e0d07187e59d19ee5608f0d00bfa33c132737b9c00bbf95b88edd415c845f6c626c1008d9fa935876d2f2e760508de67', now()) on conflict (operation_key) do nothing;
COMMIT;
\endpipeline

-- 3. The sandbox provider's confirm, sent right after the reserve's answer: BEGIN, the lock, the earlier answer, the
--    voucher and the reservation in one round trip; the redeem alone (its result decides the answer); the answer
--    and COMMIT. 3 round trips.
\startpipeline
BEGIN;
select pg_advisory_xact_lock(hashtextextended('rdm_' || lpad(to_hex(:n::bigint), 24, '0') || ':' || 'confirm', 0)), set_config('synchronous_commit', 'off', true);
select type, kind, voucher_key, amount, outcome from sandbox_operations where operation_key = 'rdm_' || lpad(to_hex(:n::bigint), 24, '0') || ':' || 'confirm';
select balance, currency, state from sandbox_vouchers where voucher_key = decode(lpad(to_hex(:n::bigint), 64, '0'), 'hex');
select type, kind, voucher_key, amount, outcome from sandbox_operations where operation_key = 'rdm_' || lpad(to_hex(:n::bigint), 24, '0') || ':' || 'reserve';
\endpipeline
insert into sandbox_vouchers (voucher_key, type, balance, currency, state, created_at)
values (decode(lpad(to_hex(:n::bigint), 64, '0'), 'hex'), 'vouchers.one_voucher', 10000, 'ZAR', 'redeemed', now())
on conflict (voucher_key) do update set state = 'redeemed' where sandbox_vouchers.state = 'active'
returning balance;
\startpipeline
insert into sandbox_operations (operation_key, type, kind, voucher_key, amount, outcome, created_at)
values ('rdm_' || lpad(to_hex(:n::bigint), 24, '0') || ':' || 'confirm', 'vouchers.one_voucher', 'confirm', decode(lpad(to_hex(:n::bigint), 64, '0'), 'hex'), 10000, '\x8c6929524c1e793653dfd29dd6116485f68748773828fb7cd213d50a041b840ea3160ec55db0befcb45f1f2f822596c5f6ffcbb80f2dac4692d6810ba6be197622a9ed392912bcd64d650298981ba0cb377b14ee483eafc3b8dcd2981336c593859f3a2c9f1154aa6e2ee179fb7ef5df912b75cfcfc4d3e4eda89a922ebc', now()) on conflict (operation_key) do nothing;
COMMIT;
\endpipeline

-- 4. RedemptionService.finish: the update (both answers), redemption.reserved, redemption.confirmed and the key's
--    completion with the sealed response in one round trip (with the BEGIN); then the commit. 2 round trips.
\startpipeline
BEGIN;
update redemptions set status = 'confirmed', version = 3, amount = 10000, currency = 'ZAR', reserved_amount = 10000, redeemed_amount = 10000, reversed_amount = 0, provider_reference = '{"serial_number":"027100090075"}'::jsonb,
    operations = ('[{"id":"op_01a2015a77771c7eebd1fc96","type":"RESERVE","status":"SUCCEEDED","amount": 10000,"provider_reference":{"pin":"************0007"},"created_at":"2026-11-22T03.43.55.766Z","provider_key":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || ':' || 'reserve"},{"id":"op_01a2015a792dc268f6a2967a","type":"CONFIRM","status":"SUCCEEDED","amount": 10000,"provider_reference":{"serial_number":"027100090075"},"created_at":"2026-11-22T03.43.56.205Z","provider_key":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || ':' || 'confirm"}]')::jsonb,
    change_voucher_sealed = null, last_error = null, revision = revision + 1, lease_until = null, updated_at = now()
where id = 'rdm_' || lpad(to_hex(:n::bigint), 24, '0') and revision = 1;
with event as (insert into outbox (id, aggregatetype, aggregateid, type, payload, merchant_id, mode, created_at)
values ('evt_r' || lpad(to_hex(:n::bigint), 24, '0'), 'collect.redemption', 'rdm_' || lpad(to_hex(:n::bigint), 24, '0'), 'redemption.reserved', ('{"specversion":"1.0","id":"evt_r' || lpad(to_hex(:n::bigint), 24, '0') || '","source":"/collect/redemption","type":"redemption.reserved","datacontenttype":"application/json","subject":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || '","time":"2026-11-22T03.43.56.187Z","mode":"test","merchantid":"mer_01a2015a5a1222f3d69d41e2","data":{"id":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || '","status":"reserved","version": 2,"type":"vouchers.one_voucher","provider_reference":{"pin":"************0007"},"amount": 10000,"reserved_amount": 10000,"reversed_amount": 0,"currency":"ZAR","source":{"pin":"************0007"},"operations":[{"id":"op_01a2015a77771c7eebd1fc96","type":"reserve","status":"succeeded","amount": 10000,"provider_reference":{"pin":"************0007"},"created_at":"2026-11-22T03.43.55.766Z"}],"related_ids":[],"created_at":"2026-11-22T03.43.55.655Z","updated_at":"2026-11-22T03.43.56.187Z"}}')::json, 'mer_bench', 'test', now())
returning seq)
insert into outbox_relay (channel, seq, event_id, aggregateid) select channel, event.seq, 'evt_r' || lpad(to_hex(:n::bigint), 24, '0'), 'rdm_' || lpad(to_hex(:n::bigint), 24, '0') from event, unnest('{webhooks}'::text[]) as channel;
with event as (insert into outbox (id, aggregatetype, aggregateid, type, payload, merchant_id, mode, created_at)
values ('evt_f' || lpad(to_hex(:n::bigint), 24, '0'), 'collect.redemption', 'rdm_' || lpad(to_hex(:n::bigint), 24, '0'), 'redemption.confirmed', ('{"specversion":"1.0","id":"evt_f' || lpad(to_hex(:n::bigint), 24, '0') || '","source":"/collect/redemption","type":"redemption.confirmed","datacontenttype":"application/json","subject":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || '","time":"2026-11-22T03.43.56.384Z","mode":"test","merchantid":"mer_01a2015a5a1222f3d69d41e2","data":{"id":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || '","status":"confirmed","version": 3,"type":"vouchers.one_voucher","provider_reference":{"serial_number":"027100090075"},"amount": 10000,"reserved_amount": 10000,"redeemed_amount": 10000,"reversed_amount": 0,"currency":"ZAR","source":{"pin":"************0007"},"operations":[{"id":"op_01a2015a77771c7eebd1fc96","type":"reserve","status":"succeeded","amount": 10000,"provider_reference":{"pin":"************0007"},"created_at":"2026-11-22T03.43.55.766Z"},{"id":"op_01a2015a792dc268f6a2967a","type":"confirm","status":"succeeded","amount": 10000,"provider_reference":{"serial_number":"027100090075"},"created_at":"2026-11-22T03.43.56.205Z"}],"related_ids":[],"created_at":"2026-11-22T03.43.55.655Z","updated_at":"2026-11-22T03.43.56.384Z"}}')::json, 'mer_bench', 'test', now())
returning seq)
insert into outbox_relay (channel, seq, event_id, aggregateid) select channel, event.seq, 'evt_f' || lpad(to_hex(:n::bigint), 24, '0'), 'rdm_' || lpad(to_hex(:n::bigint), 24, '0') from event, unnest('{webhooks}'::text[]) as channel;
update idempotency_keys set state = 'completed', response_status = 201, response_type = 'application/json', response_body = '\xb25acda7e69c6ffe1fe2bc4c378cf25b987e1d8fe49729ada7c3dc8214d0a86a41a115da4ff2e35cf9449a490887fe41ff558177242bef47f9f8d579e51504a59a59ca2ba9cd4db23ce1aca6f18d3eb888681404498119142d9636f298908094d0e791f2abc591b8f06b85038f5861401b01ab59460f7746040977180d80a07e8d41125595fe0bb7619f0047c27c1bd03e7d0c549cb8dcae6452dafa85bb28cc76f902fdf153ca22cd4a7932cc3f4d918bc132016dccffef1a9e8291a8451e89108972c22612b23e37759e4d6e46357f568af5e23dc0f4536d9af541209bc9d3cb5eea61f2bd4827f8c2d59b729c8d5af7941855fdb81ec0553e835ec15c10851e4b8375df199dc6f19e3577705986741fe2ab00b46542a19c8639a8b509416f2dcb250443574fe10083d7dd4ab15717d7b2fa39af3f6880b20f8ce9d4322c9c8d200e8f73dbfe0a53470bb23c6db8aaf1bedbf61d8435cc3454c3dcfe3fe1fb3f2c8b36b881a5644f27ba67edccdd8ed852405c67ee44db015bee2053fd53b8e18318dcd7125558c9c294e9511bc4cc1add37dd8d58e649753906c84f2dc1bfed86ef3cf2d095b06a5776d9592b1ba119d414ef2e77483e60c37f46ea501ec0543bfeef692ef807ae7fc119b5759501e7c5099e7a7df492a5614abc285b6c3c5dd16f03b1c1774d18c7493e61185a194295f6c2725bc1da932499a772b1e603bb4b9a40e30697b224c41e05c2304fa76bbe7a29f2b5577aa878d4fe24b08f9172fe5caaa8bb6f676c62f9e9b7a7b83aa3086c9678ef3beaab9cf77dc56dac581447db6a35ed3e35d8c96b507d8d37590a08a1a5588edf6c8b3ca9409e76c3d4a70b7c6a6d744ed9f6829c9444e595fe23abbb0940b48973cdd7068355ebe207e772f75bd7bfcf6b9ad81580ab4622624d1139344ac9bf110bc05aa0b4de2912aae74ebd940ed4b09116858e49e42d5ff93da78c8d1728aabce5f9b644d5a02d804524f807434ba807e9c06f0e9417b4c1218165ad0e64355639318e7692cc8dcb074574e98224b26fe0b634689035371c107809bf3150f7981e6fe1f47a33706182b72ba52e3f710bea005887c0916038dde85e84b6e26446', completed_at = now()
where merchant_id = 'mer_bench' and mode = 'test' and idempotency_key = 'bench-' || :n::bigint;
\endpipeline
COMMIT;
