-- The sandbox voucher providers' own ledger: the "other side" of test mode, kept in the database so it holds
-- across restarts and several instances. Vouchers are keyed by a keyed hash of type and PIN; a PIN without a
-- row is an unused voucher of the type's default value.
create table sandbox_vouchers (
    voucher_key bytea primary key,
    type        text not null,
    balance     bigint not null,
    currency    text not null,
    state       text not null check (state in ('active', 'redeemed')),
    created_at  timestamptz not null
);

-- Every call the sandbox answered, by the caller's operation key: a repeated call gets the same answer (as a real
-- provider's idempotency would give), and the status of a call can be asked for later.
create table sandbox_operations (
    operation_key text primary key,
    type          text not null,
    kind          text not null,
    voucher_key   bytea not null,
    amount        bigint not null,
    outcome       bytea not null, -- sealed: an approval can carry a change voucher PIN
    created_at    timestamptz not null
);
