-- A charging period's lease is its payment's (payments.lease_until): the claim moves the period to 'charging' in the
-- transaction that records the payment pending under a lease, and the recovery job finishes that payment when the
-- lease runs out, the period with it (SeriesOutcomes). The period's own lease_until was never read or written.
alter table subscription_periods drop column lease_until;
