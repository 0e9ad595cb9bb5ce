-- Transactional outbox. Column names follow Debezium's outbox event router (id, aggregatetype, aggregateid, type,
-- payload) so that CDC can take over the relay; payload is the whole CloudEvents 1.0 event in structured JSON form.
create table outbox (
    id            text primary key,
    aggregatetype text not null,
    aggregateid   text not null,
    type          text not null,
    payload       jsonb not null,
    merchant_id   text not null,
    mode          text not null,
    created_at    timestamptz not null
);
create index outbox_by_aggregate on outbox (aggregateid, created_at);
