-- The dashboard's optional second factor (decisions §11): a TOTP secret (RFC 6238) per user, sealed under the master
-- key like every stored secret; the last time step a code was accepted at, so a code works once; and ten single-use
-- recovery codes, of which only a hash is kept.

alter table dashboard_users
    add column totp_secret_sealed bytea,
    add column totp_enabled_at    timestamptz,
    add column totp_last_step     bigint;

create table dashboard_recovery_codes (
    user_id    text not null references dashboard_users (id),
    -- a keyed hash (HMAC-SHA-256, hash_keys) of the code as typed without dashes, in lower case; 80 random bits each
    code_hash  bytea not null,
    created_at timestamptz not null,
    used_at    timestamptz,
    primary key (user_id, code_hash)
);
