-- Collect §7: a payment session may be opened for a payment request's link or for one visit to a payment page. The
-- origin is told of the session's moves in the transaction that records them (SessionOrigin).
alter table payment_sessions
    add column origin_kind text check (origin_kind in ('payment_request', 'payment_page')),
    add column origin_id   text,
    add constraint payment_sessions_origin_check check ((origin_kind is null) = (origin_id is null));
create index payment_sessions_by_origin on payment_sessions (origin_id) where origin_id is not null;
