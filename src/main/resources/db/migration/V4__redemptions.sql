-- The redemption aggregate, one row. Operations, references and errors are small JSON documents owned by the row.
-- Voucher credentials are sealed (AES-GCM); only their masked form is stored in clear.
create table redemptions (
    id                 text primary key,
    merchant_id        text not null,
    mode               text not null,
    type               text not null,
    status             text not null check (status in ('draft', 'reserved', 'confirmed', 'failed')),
    version            integer not null,
    amount             bigint,
    currency           text not null,
    reserved_amount    bigint,
    redeemed_amount    bigint,
    reversed_amount    bigint not null default 0,
    source_masked      jsonb not null,
    source_sealed      bytea not null,
    redemption_options jsonb,
    related_ids        jsonb not null,
    metadata           jsonb,
    external_reference text,
    provider_reference jsonb,
    operations         jsonb not null,
    change_voucher_sealed bytea,
    last_error         jsonb,
    idempotency_key    text,
    -- Internal: every write bumps revision and is conditional on the one read, so a request thread and the
    -- recovery job can never both advance a redemption; lease_until keeps the recovery job off a redemption
    -- whose request is still calling the provider.
    revision           integer not null,
    lease_until        timestamptz,
    created_at         timestamptz not null,
    updated_at         timestamptz not null
);
create index redemptions_by_merchant on redemptions (merchant_id, mode, id desc);
create index redemptions_by_external_reference on redemptions (merchant_id, mode, external_reference)
    where external_reference is not null;
-- The recovery job looks for unfinished redemptions.
create index redemptions_unfinished on redemptions (lease_until) where status in ('draft', 'reserved');
