-- Refunds (issue 23, decisions §10): captured money given back, each refund one processor call.
-- status: draft (recorded, the processor has not accepted it yet; never shown), pending (accepted, or sent with an
-- unknown outcome that the recovery job resolves by asking), succeeded, failed.
-- call_status: where the processor call stands, as the settlement kernel keeps it: pending (recorded, being sent),
-- unknown (sent, no definite answer: money may have moved), accepted (the processor finishes it later), succeeded,
-- failed.
create table refunds (
    id                  text        primary key,
    merchant_id         text        not null,
    mode                text        not null,
    payment_id          text        not null references payments (id),
    amount              bigint      not null check (amount > 0),
    currency            text        not null,
    status              text        not null check (status in ('draft', 'pending', 'succeeded', 'failed')),
    reason              text        check (reason in ('requested_by_customer', 'duplicate', 'fraudulent', 'other')),
    failure_reason      text        check (failure_reason in ('expired_or_closed_account', 'declined', 'unknown')),
    metadata            jsonb,
    call_status         text        not null
        check (call_status in ('pending', 'unknown', 'accepted', 'succeeded', 'failed')),
    processor_key       text        not null,
    authorization_key   text        not null,
    processor_reference jsonb,
    created_at          timestamptz not null,
    updated_at          timestamptz not null,
    revision            integer     not null default 1,
    lease_until         timestamptz
);
create index refunds_by_payment on refunds (payment_id);
create index refunds_list on refunds (merchant_id, mode, created_at desc, id desc);
-- The recovery job: refunds whose call is not settled.
create index refunds_unfinished on refunds (updated_at) where call_status in ('pending', 'unknown', 'accepted');

-- The payment shows what its succeeded refunds gave back; only a refund's success writes it.
alter table payments add column refunded_amount bigint not null default 0 check (refunded_amount >= 0);
