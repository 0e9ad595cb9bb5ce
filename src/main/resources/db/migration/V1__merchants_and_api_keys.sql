-- Merchants and their API keys (decisions §1). A key is stored only as a keyed hash (HMAC-SHA256 under a key
-- derived from the master key) plus a short display prefix; the plain key is shown once, when it is created.
create table merchants (
    id         text primary key,
    name       text not null unique,
    created_at timestamptz not null
);

create table api_keys (
    id          text primary key,
    merchant_id text not null references merchants (id),
    kind        text not null check (kind in ('sk_test', 'pk_test', 'sk_live', 'pk_live')),
    key_hash    bytea not null unique,
    display     text not null,
    created_at  timestamptz not null,
    revoked_at  timestamptz
);
create index api_keys_by_merchant on api_keys (merchant_id);
