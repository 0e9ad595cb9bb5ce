-- Each webhook endpoint receives its events rendered in its own API version (decisions §15): set at creation from the
-- creating request's version, changed by PATCH. Endpoints that exist now were made in the only shape there was, the
-- newest version's.
alter table webhook_endpoints add column api_version text not null default '2026-06-01'
    check (api_version ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$');
alter table webhook_endpoints alter column api_version drop default;
