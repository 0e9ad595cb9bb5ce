-- Saved payment methods (pm_): the card a succeeded verification (or a payment of a session with
-- checkout_options.save_payment_method: always) verified. Only the safe payment_method_details (scheme, bin, last4,
-- expiry) and the keyed fingerprint are kept (decisions §6): never a card number or security code.
create table payment_methods (
    id          text primary key,
    merchant_id text not null,
    mode        text not null,
    customer_id text,
    type        text not null,
    details     jsonb not null,
    -- The keyed hash as text (fp_…), like payments.card_fingerprint: no bytea for key rotation to re-seal.
    fingerprint text,
    payment_id  text not null unique,
    created_at  timestamptz not null
);
create index payment_methods_by_merchant on payment_methods (merchant_id, mode, id desc);
alter table payments add column payment_method_id text;
alter table payment_sessions add column payment_method_id text;
