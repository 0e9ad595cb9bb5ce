-- Refunds reversing payment applications (decisions §10). One row per refund: the primary key makes reversing one
-- refund twice impossible. A payment's rows never add up to more than its application; ObligationPayments checks that
-- under the obligation's row lock, which every reversal of the payment takes first. No foreign key to refunds: the
-- refund is recorded in the same transaction by the payment module, which billing depends on and not the reverse.
create table billing_payment_reversals (
    refund_id     text primary key,
    payment_id    text not null references billing_payment_applications (payment_id),
    obligation_id text not null,
    merchant_id   text not null,
    mode          text not null,
    amount        bigint not null check (amount > 0),
    currency      text not null,
    event_id      text not null,
    reversed_at   timestamptz not null
);
create index billing_payment_reversals_by_payment on billing_payment_reversals (payment_id);
