-- One row per (merchant, mode, Idempotency-Key): what the key is bound to (method, path, canonical body hash),
-- whether the request is still running ('started') or done ('completed'), and the sealed response to replay.
create table idempotency_keys (
    merchant_id    text not null,
    mode           text not null,
    idempotency_key text not null,
    method         text not null,
    path           text not null,
    body_hash      bytea not null,
    state          text not null check (state in ('started', 'completed')),
    resource_id    text,
    response_status integer,
    response_type  text,
    response_body  bytea,
    created_at     timestamptz not null,
    completed_at   timestamptz,
    primary key (merchant_id, mode, idempotency_key)
);
create index idempotency_keys_by_age on idempotency_keys (created_at);
