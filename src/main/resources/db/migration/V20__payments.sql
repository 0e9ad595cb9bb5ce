-- Payments (pay_). A payment is made for one obligation (a customer balance, an account balance or a bill), fixed
-- when the payment is made. Until Collect creates payments from sessions, only billing's test helper makes them.
create table payments (
    id            text primary key,
    merchant_id   text not null,
    mode          text not null,
    status        text not null check (status in ('draft', 'pending', 'succeeded', 'failed', 'cancelled', 'expired')),
    amount        bigint not null check (amount > 0),
    currency      text not null,
    paid_amount   bigint not null check (paid_amount >= 0),
    obligation_id text,
    created_at    timestamptz not null,
    updated_at    timestamptz not null
);
create index payments_by_merchant on payments (merchant_id, mode, id desc);
