-- Decisions §8 (issue 33): the advances of one subscription's test clock run one at a time, on any number of
-- instances. An advance holds the subscription while it runs (renewed at each step it takes); a second one is
-- answered 409 with Retry-After. The hold of an instance that died lapses by itself.
alter table subscriptions add column clock_held_by text, add column clock_held_until timestamptz;
