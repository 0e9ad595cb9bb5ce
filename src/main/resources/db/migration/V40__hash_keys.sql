-- The key of each kind of keyed hash (API keys, sandbox voucher PINs, idempotency bodies), sealed under the master
-- key. Recorded the first time it is used (derived from the master key of that time), so that rotating the master
-- key re-seals it like any other secret instead of changing it: a changed key would orphan every stored hash.
create table hash_keys (
    purpose    text primary key,
    key_sealed bytea       not null,
    created_at timestamptz not null
);
