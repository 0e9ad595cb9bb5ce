-- Collect (issue 13): the payments table grows into the payment aggregate, shared by sessions and billing's test
-- helper. Test-helper payments written before are ordinary automatic-capture payments that succeeded.
alter table payments drop constraint payments_amount_check;
alter table payments add constraint payments_amount_check check (amount >= 0);
alter table payments
    add column intent                   text not null default 'payment'
        check (intent in ('payment', 'payment_method_verification')),
    add column capture_method           text not null default 'automatic'
        check (capture_method in ('automatic', 'manual')),
    add column country                  text not null default 'ZA',
    add column authorized_amount        bigint not null default 0 check (authorized_amount >= 0),
    add column authorization_expires_at timestamptz,
    add column voided_amount            bigint not null default 0 check (voided_amount >= 0),
    -- Only bin, last4, scheme, type, expiry (cards) or bank / masked phone: never a card number or security code.
    add column payment_method_details   jsonb,
    add column card_fingerprint         text,
    add column external_reference       text,
    add column last_payment_error       jsonb,
    add column metadata                 jsonb,
    add column payment_session_id       text,
    add column customer_id              text,
    add column version                  integer not null default 1,
    -- The processor calls, each with the key the processor received (settlement kernel).
    add column operations               jsonb not null default '[]',
    add column revision                 integer not null default 1,
    add column lease_until              timestamptz;
update payments set authorized_amount = amount, version = 2 where status = 'succeeded';
alter table payments add constraint payments_amounts_check
    check (paid_amount + voided_amount <= greatest(authorized_amount, amount));
create index payments_by_session on payments (payment_session_id) where payment_session_id is not null;
create index payments_by_external_reference on payments (merchant_id, mode, external_reference)
    where external_reference is not null;
-- The recovery job: payments with a processor call in flight, and manual authorizations that may expire.
create index payments_unfinished on payments (lease_until) where status in ('draft', 'pending', 'succeeded');

-- Payment sessions (ps_): what the merchant asked for, and the customer's attempts (payments) at the checkout
-- (ckt_, the unguessable id of session_url).
create table payment_sessions (
    id                  text primary key,
    merchant_id         text not null,
    mode                text not null,
    checkout_session_id text not null unique,
    type                text not null,
    amount              bigint not null,
    currency            text not null,
    country             text not null,
    status              text not null check (status in ('active', 'completed', 'expired', 'cancelled')),
    payment_outcome     text not null,
    customer_id         text,
    payment_id          text,
    obligation_id       text,
    obligation_kind     text,
    obligation_ref      text,
    return_url          text,
    last_payment_error  jsonb,
    external_reference  text,
    metadata            jsonb,
    options             jsonb not null,
    attempts            integer not null default 0,
    waiting_for_merchant boolean not null default false,
    version             integer not null,
    expires_at          timestamptz not null,
    created_at          timestamptz not null,
    updated_at          timestamptz not null
);
create index payment_sessions_by_merchant on payment_sessions (merchant_id, mode, id desc);
create index payment_sessions_active on payment_sessions (expires_at) where status = 'active';

-- The sandbox processor's books (test mode): every answered call by the key it came with. Outcomes only: no card
-- number or security code is ever written here.
create table sandbox_processor_operations (
    operation_key     text primary key,
    kind              text not null,
    authorization_key text,
    amount            bigint not null,
    currency          text not null,
    outcome           jsonb not null,
    approve_at        timestamptz,
    funding           text,
    created_at        timestamptz not null
);
create index sandbox_processor_by_authorization on sandbox_processor_operations (authorization_key)
    where authorization_key is not null;
