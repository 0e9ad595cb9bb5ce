-- Series (issue 24, decisions §8): mandates, charges without the customer, and subscriptions Tender charges itself.

-- A saved card the processor can charge again without the customer: its reusable token at the processor, sealed
-- (AES-GCM under the master key; a credential to charge the card, never shown or logged).
alter table payment_methods add column processor_token_sealed bytea;

-- A payment that is a charge of a mandate: the mandate, and the date it is for in the mandate's zone (its period-limit
-- period is worked out from it). A subscription's charge also names its period and that period's attempt: one payment
-- per attempt at most, whatever the number of instances (the unique index). will_retry and next_retry_at tell a
-- declined subscription charge's retry (payment.failed).
alter table payments
    add column mandate_id          text,
    add column charge_date         date,
    add column subscription_id     text,
    add column subscription_period integer,
    add column period_attempt      integer,
    add column will_retry          boolean,
    add column next_retry_at       timestamptz,
    add column off_session         boolean not null default false;
create index payments_by_mandate on payments (mandate_id, charge_date) where mandate_id is not null;
create unique index payments_one_per_period_attempt on payments (subscription_id, subscription_period, period_attempt)
    where subscription_id is not null;

-- The customer's acceptance of a first_in_series session's terms, recorded when they start the attempt (they agree
-- by paying): accepted_at, ip_address, user_agent.
alter table payment_sessions add column mandate_acceptance jsonb;
-- The mandate (and subscription) a first_in_series session's success created, or the mandate a next_in_series charged.
alter table payment_sessions add column mandate_id text, add column subscription_id text;

-- Mandates (mdt_): what the customer agreed to be charged, on which saved method. options is mandate_options as the
-- mandate holds them (with defaults; a subscription's derived ones). Period usage is counted from the payments
-- (mandate_id, charge_date), under a lock on this row.
create table mandates (
    id                     text        primary key,
    merchant_id            text        not null,
    mode                   text        not null,
    status                 text        not null check (status in ('active', 'cancelled', 'completed')),
    type                   text        not null check (type in ('scheduled', 'on_demand', 'installment')),
    customer_id            text        not null,
    payment_method_id      text        not null,
    payment_method_details jsonb       not null,
    currency               text        not null,
    options                jsonb       not null,
    acceptance             jsonb       not null,
    first_payment_id       text        not null unique,
    subscription_id        text,
    payments_count         integer     not null default 0,
    installments_charged   integer     not null default 0,
    -- The start of the day after end_date in the mandate's zone (or after its last installment): when it completes.
    ends_at                timestamptz,
    metadata               jsonb,
    version                integer     not null,
    created_at             timestamptz not null,
    updated_at             timestamptz not null,
    cancelled_at           timestamptz
);
create index mandates_list on mandates (merchant_id, mode, id desc);
create index mandates_by_customer on mandates (merchant_id, mode, customer_id);
create index mandates_by_payment_method on mandates (payment_method_id) where status = 'active';
create index mandates_ending on mandates (ends_at) where status = 'active' and ends_at is not null;

-- Subscriptions (sub_): a mandate Tender charges itself, every interval. anchor_date is the first payment's date in
-- the subscription's zone (its schedule's anchor without a start_date). clock_date is a test clock's date (test mode):
-- the subscription's today is the later of it and the real date.
create table subscriptions (
    id                 text        primary key,
    merchant_id        text        not null,
    mode               text        not null,
    status             text        not null check (status in ('active', 'past_due', 'unpaid', 'cancelled', 'completed')),
    mandate_id         text        not null unique references mandates (id),
    customer_id        text        not null,
    currency           text        not null,
    options            jsonb       not null,
    anchor_date        date        not null,
    first_payment_id   text        not null unique,
    latest_payment_id  text,
    clock_date         date,
    current_period_start date,
    current_period_end date,
    next_charge_at     timestamptz,
    version            integer     not null,
    created_at         timestamptz not null,
    updated_at         timestamptz not null,
    cancelled_at       timestamptz
);
create index subscriptions_list on subscriptions (merchant_id, mode, id desc);
create index subscriptions_by_customer on subscriptions (merchant_id, mode, customer_id);

-- One row per period Tender charges (period 1 is the first scheduled charge; the first payment is period 0 and has no
-- row). The scheduler of every instance claims due rows with FOR UPDATE SKIP LOCKED:
-- status: scheduled (waits for due_at), charging (a payment is in flight: its own row and the recovery job finish it),
-- retrying (declined softly, waits for due_at), paid, failed (declined for good), cancelled (the subscription ended).
-- notice_at: when mandate.payment_upcoming is due (null: none, or sent).
create table subscription_periods (
    subscription_id text        not null references subscriptions (id),
    period          integer     not null check (period >= 1),
    merchant_id     text        not null,
    mode            text        not null,
    charge_date     date        not null,
    amount          bigint      not null check (amount > 0),
    status          text        not null
        check (status in ('scheduled', 'charging', 'retrying', 'paid', 'failed', 'cancelled')),
    attempts        integer     not null default 0,
    retries_left    integer     not null default 0,
    due_at          timestamptz not null,
    notice_at       timestamptz,
    first_declined_on date,
    payment_id      text,
    lease_until     timestamptz,
    updated_at      timestamptz not null,
    primary key (subscription_id, period)
);
create index subscription_periods_due on subscription_periods (due_at) where status in ('scheduled', 'retrying');
create index subscription_periods_notices on subscription_periods (notice_at) where notice_at is not null;

-- The sandbox processor's saved cards: the reusable token it answered an authorization that asked to keep the card,
-- and how the card behaves when charged later without the customer (decisions §8's series cards). No card number.
create table sandbox_processor_methods (
    token      text        primary key,
    behaviour  text        not null
        check (behaviour in ('approve', 'decline_hard', 'decline_soft', 'decline_soft_once', 'authenticate')),
    funding    text,
    -- How many charges without the customer it answered (decline_soft_once declines only the first).
    charges    integer     not null default 0,
    created_at timestamptz not null
);
-- An authorization waiting for the customer (3-D Secure) that asked to keep the card: how the card behaves later.
alter table sandbox_processor_operations add column keeps_card text;
