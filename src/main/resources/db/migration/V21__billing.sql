-- Billing: customers, accounts under customers, and bills (decisions §4). Each row is also one obligation with a
-- stable ob_ id: the customer's balance, the account's balance, the bill's amount due. Money is in minor units.
-- Payment rules are four nullable columns; a customer or account without rules cannot be paid against.
create table billing_customers (
    id                   text primary key,
    merchant_id          text not null,
    mode                 text not null,
    external_reference   text not null,
    obligation_id        text not null unique,
    name                 text not null,
    email                text not null,
    phone                text,
    currency             text,
    balance              bigint,
    min_amount           bigint,
    max_amount           bigint,
    overpayment_allowed  boolean,
    underpayment_allowed boolean,
    metadata             jsonb,
    created_at           timestamptz not null,
    updated_at           timestamptz not null,
    constraint billing_customers_reference unique (merchant_id, mode, external_reference),
    check (balance is null or currency is not null),
    check ((overpayment_allowed is null) = (underpayment_allowed is null)),
    check (min_amount is null or max_amount is null or min_amount <= max_amount)
);
create index billing_customers_by_merchant on billing_customers (merchant_id, mode, id desc);

create table billing_accounts (
    id                   text primary key,
    merchant_id          text not null,
    mode                 text not null,
    external_reference   text not null,
    obligation_id        text not null unique,
    customer_id          text not null references billing_customers (id),
    name                 text not null,
    currency             text,
    balance              bigint,
    min_amount           bigint,
    max_amount           bigint,
    overpayment_allowed  boolean,
    underpayment_allowed boolean,
    metadata             jsonb,
    created_at           timestamptz not null,
    updated_at           timestamptz not null,
    constraint billing_accounts_reference unique (merchant_id, mode, external_reference),
    check (balance is null or currency is not null),
    check ((overpayment_allowed is null) = (underpayment_allowed is null)),
    check (min_amount is null or max_amount is null or min_amount <= max_amount)
);
create index billing_accounts_by_merchant on billing_accounts (merchant_id, mode, id desc);
create index billing_accounts_by_customer on billing_accounts (customer_id, id desc);

-- Bills always have payment rules (a default when created without), so all four rule columns but the bounds are set.
create table billing_bills (
    id                   text primary key,
    merchant_id          text not null,
    mode                 text not null,
    external_reference   text not null,
    obligation_id        text not null unique,
    customer_id          text not null references billing_customers (id),
    account_id           text references billing_accounts (id),
    status               text not null check (status in ('unpaid', 'paid', 'voided')),
    currency             text not null,
    amount_due           bigint not null check (amount_due between 1 and 99999999),
    amount_paid          bigint not null check (amount_paid >= 0),
    bill_date            date not null,
    due_date             date not null,
    min_amount           bigint,
    max_amount           bigint,
    overpayment_allowed  boolean not null,
    underpayment_allowed boolean not null,
    metadata             jsonb,
    created_at           timestamptz not null,
    updated_at           timestamptz not null,
    constraint billing_bills_reference unique (merchant_id, mode, external_reference),
    check (due_date >= bill_date),
    check (min_amount is null or max_amount is null or min_amount <= max_amount)
);
create index billing_bills_by_merchant on billing_bills (merchant_id, mode, id desc);
create index billing_bills_by_customer on billing_bills (customer_id, id desc);
create index billing_bills_by_account on billing_bills (account_id, id desc) where account_id is not null;

-- One row per payment applied to an obligation: the primary key makes applying one payment twice impossible, and
-- the rows of an obligation add up to what payments moved on it.
create table billing_payment_applications (
    payment_id    text primary key references payments (id),
    obligation_id text not null,
    merchant_id   text not null,
    mode          text not null,
    customer_id   text not null,
    account_id    text,
    bill_id       text,
    amount        bigint not null check (amount > 0),
    currency      text not null,
    event_id      text not null,
    applied_at    timestamptz not null
);
create index billing_payment_applications_by_obligation on billing_payment_applications (obligation_id, applied_at);
