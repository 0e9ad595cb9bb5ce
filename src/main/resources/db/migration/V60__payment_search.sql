-- The dashboard's Payments page (decisions §11, PaymentSearch): one merchant's payments in one mode, newest first
-- (created_at desc, id desc), narrowed by filters. Each index leads with (merchant_id, mode), so one merchant's 50,000
-- payments are read without touching another's, and ends in the list's order, so a page is the first rows of one
-- index range rather than a sort of every match.
-- Plain create index (not concurrently): Flyway runs this in a transaction at start-up and the payments of a
-- deployment that has been running for a while still build in seconds; a much larger table would take a separate
-- concurrent migration.

-- The list itself, and the filters that most payments pass (method, currency, amount, a common status, a date range):
-- the page walks this index in order and skips what does not match.
create index payments_list on payments (merchant_id, mode, created_at desc, id desc);
-- A rare status (pending, failed among thousands succeeded) finds its few rows here instead of walking the list.
create index payments_by_status on payments (merchant_id, mode, status, created_at desc, id desc);
-- A card's last 4 digits, inside payment_method_details (the expression the search compares, so the planner uses it).
create index payments_by_card_last4 on payments (merchant_id, mode, (payment_method_details -> 'card' ->> 'last4'),
    created_at desc, id desc) where payment_method_details -> 'card' ->> 'last4' is not null;
-- A customer's payments: search by a bcus_ id, and by customer email (billing's ids for the email, then these).
create index payments_by_customer on payments (merchant_id, mode, customer_id, created_at desc, id desc)
    where customer_id is not null;
-- Search by a saved payment method's or an obligation's id (sessions, mandates, subscriptions, external references
-- and refunds have their indexes already: payments_by_session, payments_by_mandate, payments_one_per_period_attempt,
-- payments_by_external_reference, refunds_pkey).
create index payments_by_payment_method on payments (payment_method_id) where payment_method_id is not null;
create index payments_by_obligation on payments (obligation_id) where obligation_id is not null;
-- Billing's answer to "which customers have this email", whatever its case.
create index billing_customers_by_email on billing_customers (merchant_id, mode, lower(email));
