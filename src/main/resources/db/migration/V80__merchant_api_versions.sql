-- Dated API versions (decisions §15): the version a merchant's requests without a Tender-Version header get. Merchants
-- that exist now, and new ones, are pinned to the newest version: the column's default is the newest version, and the
-- migration that adds a version moves it (ApiVersionsIT checks that a new merchant is on the newest).
-- api_version_previous and api_version_changed_at are the last change of the pin: the owner may roll an upgrade back
-- to the previous version for 72 hours after it.
alter table merchants
    add column api_version            text not null default '2026-06-01'
        check (api_version ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    add column api_version_previous   text check (api_version_previous ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    add column api_version_changed_at timestamptz;
