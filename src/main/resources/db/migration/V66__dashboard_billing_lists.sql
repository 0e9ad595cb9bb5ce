-- The dashboard's Customers, Bills and Redemptions pages (decisions §11; BillingSearch, RedemptionSearch): one
-- merchant's rows in one mode, newest first (created_at desc, id desc), a page at a time after the last row's position.
-- Each index leads with (merchant_id, mode) and ends in the list's order, so a page is the first rows of one index
-- range rather than a sort of every row. The API's own lists page by id and keep their (merchant_id, mode, id desc)
-- indexes.
create index billing_customers_list on billing_customers (merchant_id, mode, created_at desc, id desc);
-- Search by the start of a name, whatever its case (lower(name) like 'gra%'); by email: billing_customers_by_email (V60).
create index billing_customers_by_name on billing_customers (merchant_id, mode, lower(name) text_pattern_ops);
create index billing_bills_list on billing_bills (merchant_id, mode, created_at desc, id desc);
-- A rare status (voided among thousands paid) finds its few rows here instead of walking the list.
create index billing_bills_by_status on billing_bills (merchant_id, mode, status, created_at desc, id desc);
create index redemptions_list on redemptions (merchant_id, mode, created_at desc, id desc);
create index redemptions_by_status on redemptions (merchant_id, mode, status, created_at desc, id desc);
