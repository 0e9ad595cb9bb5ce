-- bench/subscriptions.sh: every period 1 charged exactly once. psql -v count=N -f bench/subscriptions-check.sql
-- Prints one line per check (its value, "ok" or what it should be, its name: each must equal :count, or 0 where it
-- says "none"), then "PASS result" or "FAIL result".
with subs as (select id, mandate_id from subscriptions),
     pay as (select subscription_id, count(*) as n, count(*) filter (where status = 'succeeded') as ok,
                    min(id) as id from payments where subscription_period = 1 group by subscription_id),
     ledger as (select split_part(operation_key, ':', 1) as subscription_id, count(*) as n,
                       count(*) filter (where operation_key = split_part(operation_key, ':', 1) || ':1:charge'
                                        and outcome ->> 'result' = 'approved') as charged
                from sandbox_processor_operations where operation_key like 'sub\_%' group by 1),
     checks as (
  select 1 as o, 'subscriptions' as name, (select count(*) from subs) as value, :count as want
  union all select 2, 'subscriptions with exactly one period-1 payment, succeeded',
    (select count(*) from subs s join pay p on p.subscription_id = s.id where p.n = 1 and p.ok = 1), :count
  union all select 3, 'subscriptions with more than one period-1 payment (none)', (select count(*) from pay where n > 1), 0
  union all select 4, 'period-1 payments not succeeded (none)',
    (select count(*) from payments where subscription_period = 1 and status <> 'succeeded'), 0
  union all select 5, 'periods 1 paid by that payment',
    (select count(*) from subscription_periods sp join pay p on p.subscription_id = sp.subscription_id
     where sp.period = 1 and sp.status = 'paid' and sp.payment_id = p.id and p.n = 1), :count
  union all select 6, 'subscriptions with one sandbox entry, <sub>:1:charge approved, and no other',
    (select count(*) from subs s join ledger l on l.subscription_id = s.id where l.n = 1 and l.charged = 1), :count
  union all select 7, 'sandbox entries of subscriptions other than <sub>:1:charge (none)',
    (select coalesce(sum(n - charged), 0) from ledger), 0
  union all select 8, 'sandbox charges of subscriptions, in all', (select coalesce(sum(n), 0) from ledger), :count
  union all select 9, 'mandates counted once more (payments_count = 2)',
    (select count(*) from mandates m join subs s on s.mandate_id = m.id where m.payments_count = 2), :count
  union all select 10, 'next periods (2) scheduled', (select count(*) from subscription_periods
     where period = 2 and status = 'scheduled'), :count
  union all select 11, 'subscriptions active with period 1 as their latest payment',
    (select count(*) from subscriptions s join pay p on p.subscription_id = s.id
     where s.status = 'active' and s.latest_payment_id = p.id), :count
  union all select 12, 'payment.succeeded events of period-1 payments',
    (select count(*) from outbox o join pay p on o.aggregateid = p.id where o.type = 'payment.succeeded'), :count)
select value, verdict, name from (
  select o, value, case when value = want then 'ok' else 'want:' || want end as verdict, name from checks
  union all
  select 99, null, case when bool_and(value = want) then 'PASS' else 'FAIL' end, 'result' from checks) r
order by o;
