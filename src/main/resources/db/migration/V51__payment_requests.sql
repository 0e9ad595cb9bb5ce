-- Collect §7: payment requests. Each opens one payment session (origin 'payment_request') whose checkout is the
-- request's link; the request follows the session's moves (paid, expired, cancelled, a declined push: failed).
create table payment_requests (
    id                      text primary key,
    merchant_id             text not null,
    mode                    text not null,
    type                    text not null check (type in ('link', 'push')),
    status                  text not null check (status in ('active', 'paid', 'expired', 'cancelled', 'failed')),
    amount                  bigint not null,
    currency                text not null,
    description             text,
    external_reference      text,
    expires_at              timestamptz not null,
    payment_session_id      text not null unique,
    checkout_session_id     text not null unique,
    payment_id              text,
    last_payment_error      jsonb,
    -- The customer asked: billing's customer (customer_id) or inline details; name, email and phone as at creation.
    customer_id             text,
    customer_name           text,
    customer_email          text,
    customer_phone          text,
    bill                    text,
    account                 text,
    obligation_id           text,
    visible_payment_methods jsonb,
    push_phone_number       text,
    notify_email            boolean not null default false,
    notify_sms              boolean not null default false,
    metadata                jsonb,
    -- A push is sent once: the first to set push_started_at (the creating request after its commit, or the poller
    -- for a request whose creator died before) sends it. poll_after spaces the poller's status checks.
    push_started_at         timestamptz,
    poll_after              timestamptz,
    version                 integer not null,
    created_at              timestamptz not null,
    updated_at              timestamptz not null,
    check ((type = 'push') = (push_phone_number is not null)),
    check (bill is null or account is null)
);
create index payment_requests_by_merchant on payment_requests (merchant_id, mode, id desc);
create index payment_requests_active_pushes on payment_requests (poll_after) where status = 'active' and type = 'push';
