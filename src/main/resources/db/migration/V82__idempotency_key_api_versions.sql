-- An Idempotency-Key is bound to the API version of its request as to its method, path and body (decisions §15): the
-- same key under another version is an idempotency_conflict. Keys claimed before versions existed were claimed in the
-- newest version's shape.
alter table idempotency_keys add column api_version text not null default '2026-06-01';
alter table idempotency_keys alter column api_version drop default;
