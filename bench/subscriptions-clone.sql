-- bench/subscriptions.sh: the one subscription made through the API, cloned until there are :count, every one's
-- period 1 due now. psql -v count=N -f bench/subscriptions-clone.sql, with the service stopped.
--
-- Each clone n (1 … count - 1) is the real one's rows with new ids (the real id's first 12 hex digits, its time, then
-- n in the last 12): its first payment, its mandate and its subscription, and period 1. All share the real customer
-- and the real saved card (pm_): the card's token is sealed to that method's id, so only that method can be charged.
-- The sandbox keeps that card as 'approve' (4242 4242 4242 4242), so every charge is approved.
\set ON_ERROR_STOP on
begin;

create temporary table real_one on commit drop as
select s.id as subscription_id, s.mandate_id, s.first_payment_id from subscriptions s;
do $$ begin
  if (select count(*) from real_one) <> 1 then
    raise exception 'expected exactly one subscription to clone, found %', (select count(*) from real_one);
  end if;
end $$;

-- prefix || the real id's time || n: a valid id (prefix + 24 hex digits), distinct for every n.
create function pg_temp.clone_id(id text, n int) returns text language sql immutable
  as $$ select split_part(id, '_', 1) || '_' || substr(split_part(id, '_', 2), 1, 12) || lpad(to_hex(n), 12, '0') $$;

create temporary table clones on commit drop as select generate_series(1, :count - 1) as n;

insert into payments
select (jsonb_populate_record(null::payments, to_jsonb(p) || jsonb_build_object(
    'id', pg_temp.clone_id(p.id, c.n), 'mandate_id', pg_temp.clone_id(p.mandate_id, c.n)))).*
from payments p join real_one r on p.id = r.first_payment_id, clones c;

insert into mandates
select (jsonb_populate_record(null::mandates, to_jsonb(m) || jsonb_build_object(
    'id', pg_temp.clone_id(m.id, c.n), 'first_payment_id', pg_temp.clone_id(m.first_payment_id, c.n),
    'subscription_id', pg_temp.clone_id(m.subscription_id, c.n)))).*
from mandates m join real_one r on m.id = r.mandate_id, clones c;

insert into subscriptions
select (jsonb_populate_record(null::subscriptions, to_jsonb(s) || jsonb_build_object(
    'id', pg_temp.clone_id(s.id, c.n), 'mandate_id', pg_temp.clone_id(s.mandate_id, c.n),
    'first_payment_id', pg_temp.clone_id(s.first_payment_id, c.n),
    'latest_payment_id', pg_temp.clone_id(s.latest_payment_id, c.n)))).*
from subscriptions s join real_one r on s.id = r.subscription_id, clones c;

insert into subscription_periods
select (jsonb_populate_record(null::subscription_periods, to_jsonb(p) || jsonb_build_object(
    'subscription_id', pg_temp.clone_id(p.subscription_id, c.n)))).*
from subscription_periods p join real_one r on p.subscription_id = r.subscription_id, clones c;

-- Every period 1 (the real one's too) falls due at once: today's, due since the start of today in its zone (the
-- real one was due tomorrow), with no notice pending (the subscription says notice_days 0).
update subscription_periods p set charge_date = today, due_at = today::timestamp at time zone zone, notice_at = null
from (select s.id, s.options ->> 'time_zone' as zone, (now() at time zone (s.options ->> 'time_zone'))::date as today
      from subscriptions s) s
where p.subscription_id = s.id;
update subscriptions s set next_charge_at = p.due_at from subscription_periods p where p.subscription_id = s.id;

commit;
vacuum analyze payments, mandates, subscriptions, subscription_periods;
select (select count(*) from subscriptions) as subscriptions, (select count(*) from mandates) as mandates,
       (select count(*) from subscription_periods where due_at <= now() and status = 'scheduled') as periods_due,
       (select count(distinct payment_method_id) from mandates) as payment_methods;
