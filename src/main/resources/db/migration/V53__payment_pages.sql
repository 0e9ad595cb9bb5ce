-- Collect §7: payment pages (pp_), a reusable page anyone can pay through. Each visit that passes the page's form
-- opens a payment session of its own (origin payment_page); each attempt that ends on such a session is a page
-- transaction (pt_), one per payment. A deleted page is only marked: its transactions and payments stay.
create table payment_pages (
    id                        text primary key,
    merchant_id               text        not null,
    mode                      text        not null,
    -- 'expired' is not stored: an active page past expires_at reads as expired.
    status                    text        not null check (status in ('active', 'inactive')),
    title                     text        not null,
    description               text,
    currency                  text        not null,
    -- A fixed amount, or the payer's choice within amount_min..amount_max (presets offered first).
    amount                    bigint check (amount between 1 and 99999999),
    amount_min                bigint,
    amount_max                bigint,
    amount_presets            jsonb,
    return_url                text,
    requires_customer_details boolean     not null,
    requires_delivery_details boolean     not null,
    custom_fields             jsonb       not null,
    account                   text,
    visible_payment_methods   jsonb,
    external_reference        text,
    metadata                  jsonb,
    expires_at                timestamptz,
    deleted_at                timestamptz,
    created_at                timestamptz not null,
    updated_at                timestamptz not null,
    constraint payment_pages_fixed_or_chosen_check check ((amount is null) <> (amount_min is null and amount_max is null)),
    constraint payment_pages_range_check check (amount_min is null or (amount_min >= 1 and amount_min <= amount_max
        and amount_max <= 99999999))
);
create index payment_pages_by_merchant on payment_pages (merchant_id, mode, id desc) where deleted_at is null;

-- One row per visit that opened a session: what the payer entered, copied onto each transaction of that session.
-- form_nonce is the nonce of the form the visit was posted from: the same form posted twice opens one session.
create table payment_page_visits (
    id                 text primary key,
    payment_page_id    text        not null references payment_pages (id),
    payment_session_id text unique,
    form_nonce         text        not null,
    amount             bigint      not null,
    currency           text        not null,
    customer           jsonb,
    delivery_address   jsonb,
    custom_fields      jsonb       not null,
    metadata           jsonb,
    created_at         timestamptz not null,
    unique (payment_page_id, form_nonce)
);

create table payment_page_transactions (
    id                  text primary key,
    payment_page_id     text        not null references payment_pages (id),
    merchant_id         text        not null,
    mode                text        not null,
    status              text        not null check (status in ('succeeded', 'failed')),
    amount              bigint      not null,
    currency            text        not null,
    customer            jsonb,
    delivery_address    jsonb,
    custom_fields       jsonb       not null,
    payment_id          text        not null unique,
    payment_session_id  text        not null,
    checkout_session_id text        not null,
    metadata            jsonb,
    created_at          timestamptz not null,
    updated_at          timestamptz not null
);
create index payment_page_transactions_by_page on payment_page_transactions (payment_page_id, id desc);
