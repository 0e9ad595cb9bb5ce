-- The minimal ceiling (issue 16, item 2): FROZEN. The least that one three-phase redemption (created, reserved,
-- confirmed) must write, whatever the service's design: the idempotency key (claimed, then completed with the stored
-- response), the redemption aggregate (one insert, one update), its two operations (reserve and confirm), three
-- events, the voucher's ledger row at the provider, and three commits. Nothing else: no advisory locks, no reads of
-- the provider's earlier answers, no relay rows, no second provider transaction. Unlike bench/ceiling.sql it does not
-- follow the service's SQL when that changes: it is the fixed yardstick, so that the ratio also rewards doing less
-- work (docs/PERFORMANCE.md). Same schema (run.sh copies the service's into tender_ceiling), same value sizes as
-- ceiling.sql (sealed values are random bytes of the service's sealed lengths, JSON documents the service's own).
--
-- Shapes chosen, and why:
-- - The two operations are the aggregate's `operations` column (the service's own shape), not rows of their own: the
--   aggregate row is written by the insert and the update anyway, so this adds bytes to writes that happen, where
--   rows would add two inserts and two index entries. The insert carries the pending reserve (the intent must be
--   durable before the provider is called, or a crash could not be resolved); the update records both answers.
-- - The key's claim is a plain insert (`on conflict do nothing`: a duplicate is seen without an error); the
--   service's re-claim of expired keys is its design, not a must.
-- - Events are rows of `outbox` (one insert each, with their CloudEvents payloads); the relay rows
--   (`outbox_relay`) are the service's delivery design and are left out.
-- - The provider's books: one row, the voucher redeemed (`sandbox_vouchers`), in the provider's own transaction.
--   All three commits wait for the disk: a real provider commits its books durably; the sandbox's commits that do not
--   wait (SandboxVoucherLedger) are the service's design. (Were it not waiting, this ceiling would be higher.)
-- Commits: 1. the key, the draft, redemption.created; 2. the provider's ledger row; 3. the aggregate's update with
-- both operations, redemption.reserved and redemption.confirmed, the key completed with the stored response.
\set n random(1, 9000000000000000000)

-- 1. Claim the key, insert the draft with its pending reserve, append redemption.created.
BEGIN;
insert into idempotency_keys (merchant_id, mode, idempotency_key, method, path, api_version, body_hash, state, resource_id, created_at)
values ('mer_bench', 'test', 'bench-' || :n::bigint, 'POST', '/collect/redemptions', '2026-06-01', '\x435aec3d6b3eacf9f3c391fc8b0bcbf29ecb9549dae52af948942051e1ab4af4', 'started', 'rdm_' || lpad(to_hex(:n::bigint), 24, '0'), now())
on conflict (merchant_id, mode, idempotency_key) do nothing;
insert into redemptions (id, merchant_id, mode, type, status, version, amount, currency, reserved_amount, redeemed_amount, reversed_amount, source_masked, source_sealed, redemption_options, related_ids, metadata, external_reference, provider_reference, operations, change_voucher_sealed, last_error, idempotency_key, revision, lease_until, created_at, updated_at)
values ('rdm_' || lpad(to_hex(:n::bigint), 24, '0'), 'mer_bench', 'test', 'vouchers.one_voucher', 'draft', 1, null, 'ZAR', null, null, 0, '{"pin":"************0007"}'::jsonb, '\xb5ed87861d9b009bef609a7cf1ce12066614cc2d26f43139c44f498dd208d2376968ca67d5c2a42c7d063cddea1cb6b238ef10e8d743ac', null, '[]'::jsonb, null, null, null, ('[{"id":"op_01a2015a77771c7eebd1fc96","type":"RESERVE","status":"PENDING","amount": 0,"created_at":"2026-11-22T03.43.55.766Z","provider_key":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || ':' || 'reserve"}]')::jsonb, null, null, 'bench-' || :n::bigint, 1, now() + interval '1 minute', now(), now());
insert into outbox (id, aggregatetype, aggregateid, type, payload, merchant_id, mode, created_at)
values ('evt_c' || lpad(to_hex(:n::bigint), 24, '0'), 'collect.redemption', 'rdm_' || lpad(to_hex(:n::bigint), 24, '0'), 'redemption.created', ('{"specversion":"1.0","id":"evt_c' || lpad(to_hex(:n::bigint), 24, '0') || '","source":"/collect/redemption","type":"redemption.created","datacontenttype":"application/json","subject":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || '","time":"2026-11-22T03.43.55.655Z","mode":"test","merchantid":"mer_01a2015a5a1222f3d69d41e2","data":{"id":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || '","status":"draft","version": 1,"type":"vouchers.one_voucher","amount": 0,"reversed_amount": 0,"currency":"ZAR","source":{"pin":"************0007"},"operations":[],"related_ids":[],"created_at":"2026-11-22T03.43.55.655Z","updated_at":"2026-11-22T03.43.55.655Z"}}')::json, 'mer_bench', 'test', now());
COMMIT;

-- 2. The provider redeems the voucher: its ledger row.
BEGIN;
insert into sandbox_vouchers (voucher_key, type, balance, currency, state, created_at)
values (decode(lpad(to_hex(:n::bigint), 64, '0'), 'hex'), 'vouchers.one_voucher', 10000, 'ZAR', 'redeemed', now());
COMMIT;

-- 3. Record both operations (one update), append redemption.reserved and redemption.confirmed, complete the key
--    with the stored response.
BEGIN;
update redemptions set status = 'confirmed', version = 3, amount = 10000, currency = 'ZAR', reserved_amount = 10000, redeemed_amount = 10000, reversed_amount = 0, provider_reference = '{"serial_number":"027100090075"}'::jsonb,
    operations = ('[{"id":"op_01a2015a77771c7eebd1fc96","type":"RESERVE","status":"SUCCEEDED","amount": 10000,"provider_reference":{"pin":"************0007"},"created_at":"2026-11-22T03.43.55.766Z","provider_key":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || ':' || 'reserve"},{"id":"op_01a2015a792dc268f6a2967a","type":"CONFIRM","status":"SUCCEEDED","amount": 10000,"provider_reference":{"serial_number":"027100090075"},"created_at":"2026-11-22T03.43.56.205Z","provider_key":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || ':' || 'confirm"}]')::jsonb,
    change_voucher_sealed = null, last_error = null, revision = revision + 1, lease_until = null, updated_at = now()
where id = 'rdm_' || lpad(to_hex(:n::bigint), 24, '0') and revision = 1;
insert into outbox (id, aggregatetype, aggregateid, type, payload, merchant_id, mode, created_at)
values ('evt_r' || lpad(to_hex(:n::bigint), 24, '0'), 'collect.redemption', 'rdm_' || lpad(to_hex(:n::bigint), 24, '0'), 'redemption.reserved', ('{"specversion":"1.0","id":"evt_r' || lpad(to_hex(:n::bigint), 24, '0') || '","source":"/collect/redemption","type":"redemption.reserved","datacontenttype":"application/json","subject":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || '","time":"2026-11-22T03.43.56.187Z","mode":"test","merchantid":"mer_01a2015a5a1222f3d69d41e2","data":{"id":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || '","status":"reserved","version": 2,"type":"vouchers.one_voucher","provider_reference":{"pin":"************0007"},"amount": 10000,"reserved_amount": 10000,"reversed_amount": 0,"currency":"ZAR","source":{"pin":"************0007"},"operations":[{"id":"op_01a2015a77771c7eebd1fc96","type":"reserve","status":"succeeded","amount": 10000,"provider_reference":{"pin":"************0007"},"created_at":"2026-11-22T03.43.55.766Z"}],"related_ids":[],"created_at":"2026-11-22T03.43.55.655Z","updated_at":"2026-11-22T03.43.56.187Z"}}')::json, 'mer_bench', 'test', now());
insert into outbox (id, aggregatetype, aggregateid, type, payload, merchant_id, mode, created_at)
values ('evt_f' || lpad(to_hex(:n::bigint), 24, '0'), 'collect.redemption', 'rdm_' || lpad(to_hex(:n::bigint), 24, '0'), 'redemption.confirmed', ('{"specversion":"1.0","id":"evt_f' || lpad(to_hex(:n::bigint), 24, '0') || '","source":"/collect/redemption","type":"redemption.confirmed","datacontenttype":"application/json","subject":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || '","time":"2026-11-22T03.43.56.384Z","mode":"test","merchantid":"mer_01a2015a5a1222f3d69d41e2","data":{"id":"rdm_' || lpad(to_hex(:n::bigint), 24, '0') || '","status":"confirmed","version": 3,"type":"vouchers.one_voucher","provider_reference":{"serial_number":"027100090075"},"amount": 10000,"reserved_amount": 10000,"redeemed_amount": 10000,"reversed_amount": 0,"currency":"ZAR","source":{"pin":"************0007"},"operations":[{"id":"op_01a2015a77771c7eebd1fc96","type":"reserve","status":"succeeded","amount": 10000,"provider_reference":{"pin":"************0007"},"created_at":"2026-11-22T03.43.55.766Z"},{"id":"op_01a2015a792dc268f6a2967a","type":"confirm","status":"succeeded","amount": 10000,"provider_reference":{"serial_number":"027100090075"},"created_at":"2026-11-22T03.43.56.205Z"}],"related_ids":[],"created_at":"2026-11-22T03.43.55.655Z","updated_at":"2026-11-22T03.43.56.384Z"}}')::json, 'mer_bench', 'test', now());
update idempotency_keys set state = 'completed', response_status = 201, response_type = 'application/json', response_body = '\xb25acda7e69c6ffe1fe2bc4c378cf25b987e1d8fe49729ada7c3dc8214d0a86a41a115da4ff2e35cf9449a490887fe41ff558177242bef47f9f8d579e51504a59a59ca2ba9cd4db23ce1aca6f18d3eb888681404498119142d9636f298908094d0e791f2abc591b8f06b85038f5861401b01ab59460f7746040977180d80a07e8d41125595fe0bb7619f0047c27c1bd03e7d0c549cb8dcae6452dafa85bb28cc76f902fdf153ca22cd4a7932cc3f4d918bc132016dccffef1a9e8291a8451e89108972c22612b23e37759e4d6e46357f568af5e23dc0f4536d9af541209bc9d3cb5eea61f2bd4827f8c2d59b729c8d5af7941855fdb81ec0553e835ec15c10851e4b8375df199dc6f19e3577705986741fe2ab00b46542a19c8639a8b509416f2dcb250443574fe10083d7dd4ab15717d7b2fa39af3f6880b20f8ce9d4322c9c8d200e8f73dbfe0a53470bb23c6db8aaf1bedbf61d8435cc3454c3dcfe3fe1fb3f2c8b36b881a5644f27ba67edccdd8ed852405c67ee44db015bee2053fd53b8e18318dcd7125558c9c294e9511bc4cc1add37dd8d58e649753906c84f2dc1bfed86ef3cf2d095b06a5776d9592b1ba119d414ef2e77483e60c37f46ea501ec0543bfeef692ef807ae7fc119b5759501e7c5099e7a7df492a5614abc285b6c3c5dd16f03b1c1774d18c7493e61185a194295f6c2725bc1da932499a772b1e603bb4b9a40e30697b224c41e05c2304fa76bbe7a29f2b5577aa878d4fe24b08f9172fe5caaa8bb6f676c62f9e9b7a7b83aa3086c9678ef3beaab9cf77dc56dac581447db6a35ed3e35d8c96b507d8d37590a08a1a5588edf6c8b3ca9409e76c3d4a70b7c6a6d744ed9f6829c9444e595fe23abbb0940b48973cdd7068355ebe207e772f75bd7bfcf6b9ad81580ab4622624d1139344ac9bf110bc05aa0b4de2912aae74ebd940ed4b09116858e49e42d5ff93da78c8d1728aabce5f9b644d5a02d804524f807434ba807e9c06f0e9417b4c1218165ad0e64355639318e7692cc8dcb074574e98224b26fe0b634689035371c107809bf3150f7981e6fe1f47a33706182b72ba52e3f710bea005887c0916038dde85e84b6e26446', completed_at = now()
where merchant_id = 'mer_bench' and mode = 'test' and idempotency_key = 'bench-' || :n::bigint;
COMMIT;
