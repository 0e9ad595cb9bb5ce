-- Webhook endpoints of a merchant and mode (decisions §5). The signing secret is sealed (AES-GCM, bound to the
-- endpoint id); after a rotation the previous secret stays valid, and is signed with too, until its expiry.
create table webhook_endpoints (
    id                         text primary key,
    merchant_id                text        not null,
    mode                       text        not null,
    url                        text        not null,
    description                text,
    enabled_events             text[]      not null,
    status                     text        not null check (status in ('enabled', 'disabled')),
    disabled_reason            text,
    secret_sealed              bytea       not null,
    previous_secret_sealed     bytea,
    previous_secret_expires_at timestamptz,
    created_at                 timestamptz not null,
    updated_at                 timestamptz not null
);
create index webhook_endpoints_by_merchant on webhook_endpoints (merchant_id, mode, id desc);

-- One delivery per (endpoint, event): pending until a 2xx answer, or failed once the retry schedule is used up.
-- next_attempt_at doubles as the claim lease: claiming an attempt moves it past the request timeout, so an attempt
-- whose instance died is taken up again by any instance once the lease has run out.
-- failures counts the failed attempts since the last success or redelivery: the position in the retry schedule.
create table webhook_deliveries (
    id              text primary key,
    endpoint_id     text        not null references webhook_endpoints (id) on delete cascade,
    event_id        text        not null references outbox (id) on delete cascade,
    event_seq       bigint      not null,
    aggregateid     text        not null,
    status          text        not null check (status in ('pending', 'succeeded', 'failed')),
    attempts        integer     not null,
    failures        integer     not null,
    next_attempt_at timestamptz not null,
    created_at      timestamptz not null,
    updated_at      timestamptz not null,
    unique (endpoint_id, event_id)
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
-- The dispatcher keeps an endpoint's events of one aggregate in order: it looks for an earlier pending one.
create index webhook_deliveries_in_order on webhook_deliveries (endpoint_id, aggregateid, event_seq)
    where status = 'pending';
create index webhook_deliveries_by_event on webhook_deliveries (event_id);

-- Every attempt, as the merchant can list it.
create table webhook_attempts (
    id                text primary key,
    delivery_id       text        not null references webhook_deliveries (id) on delete cascade,
    endpoint_id       text        not null,
    event_id          text        not null,
    event_type        text        not null,
    attempt           integer     not null,
    outcome           text        not null check (outcome in ('succeeded', 'failed')),
    response_status   integer,
    error             text,
    duration_ms       integer     not null,
    webhook_timestamp bigint      not null,
    created_at        timestamptz not null
);
create index webhook_attempts_by_endpoint on webhook_attempts (endpoint_id, id desc);
create index webhook_attempts_by_delivery on webhook_attempts (delivery_id);
