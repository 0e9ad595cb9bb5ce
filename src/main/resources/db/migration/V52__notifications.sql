-- Payment links to send to payers (decisions §7, notify). A row is written in the transaction that creates its
-- subject (a payment request), so a crash loses no message; any instance's dispatcher sends it.
-- next_attempt_at doubles as the claim lease: claiming moves it past the send time, so a message whose instance died
-- is taken up again once the lease has run out. attempts counts claims, and fences the outcome's write.
-- The url holds the checkout's ckt_ id (as payment_sessions.checkout_session_id does); last_error never holds it.
create table notifications (
    id              text primary key,
    merchant_id     text        not null,
    mode            text        not null,
    subject_id      text        not null,
    channel         text        not null check (channel in ('email', 'sms')),
    merchant_name   text        not null,
    recipient_name  text,
    email           text,
    phone           text,
    url             text        not null,
    amount          bigint      not null,
    currency        text        not null,
    description     text,
    expires_at      timestamptz,
    status          text        not null check (status in ('pending', 'sent', 'failed')),
    attempts        integer     not null,
    next_attempt_at timestamptz not null,
    last_error      text,
    sent_at         timestamptz,
    created_at      timestamptz not null,
    updated_at      timestamptz not null,
    check ((channel = 'email' and email is not null) or (channel = 'sms' and phone is not null))
);
create index notifications_due on notifications (next_attempt_at) where status = 'pending';
create index notifications_by_subject on notifications (merchant_id, mode, subject_id);
