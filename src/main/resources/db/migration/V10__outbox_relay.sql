-- The relay's side of the outbox (docs/events.md, "Relay").
--
-- seq: the order in which events were appended. For one aggregate it is also the commit order, because every
-- writer appends an aggregate's event only after it has written (and so locked) the aggregate's own row, and holds
-- that lock until it commits: the next event of the same aggregate gets a larger seq and commits later.
--
-- payload becomes json (not jsonb) so the stored CloudEvent keeps the exact bytes and property order the service
-- wrote; nothing queries inside it, and Debezium reads json and jsonb alike.
alter table outbox add column seq bigserial;
alter table outbox alter column payload type json using payload::json;
create unique index outbox_by_seq on outbox (seq);
create index outbox_by_merchant on outbox (merchant_id, mode, id desc);
create index outbox_by_age on outbox (created_at);

-- What each relay channel ('webhooks', 'kafka') still has to deliver: one row per event and channel, written in the
-- event's own transaction and deleted in the transaction that delivers it. There is no high-water mark: an event
-- whose transaction commits late (with a smaller seq than events already relayed) is simply found on a later poll,
-- so nothing is ever skipped. The outbox table itself is insert-only (plus the retention purge), which is what a
-- Debezium connector on it expects.
create table outbox_relay (
    channel     text   not null,
    seq         bigint not null,
    event_id    text   not null references outbox (id) on delete cascade,
    aggregateid text   not null,
    primary key (channel, seq)
);
create index outbox_relay_by_aggregate on outbox_relay (channel, aggregateid, seq);
create index outbox_relay_by_event on outbox_relay (event_id);
