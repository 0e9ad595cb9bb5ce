-- The merchant dashboard (decisions §11): its users, their one-time sign-in links, and the audit log.

create table dashboard_users (
    id             text primary key,
    merchant_id    text not null references merchants (id),
    email          text not null,
    role           text not null check (role in ('owner', 'developer', 'viewer')),
    -- Spring Security's DelegatingPasswordEncoder format ({bcrypt}...); null until the user sets one through a link.
    password_hash  text,
    created_at     timestamptz not null,
    signed_in_at   timestamptz,
    disabled       boolean not null default false
);
-- One account per email and merchant, whatever the case the email was typed in.
create unique index dashboard_users_email on dashboard_users (merchant_id, lower(email));
create index dashboard_users_by_email on dashboard_users (lower(email));

-- A link's token is 256 random bits shown once; only its SHA-256 is kept, so a copy of the table opens nothing.
create table dashboard_sign_in_links (
    token_hash  bytea primary key,
    user_id     text not null references dashboard_users (id),
    created_at  timestamptz not null,
    expires_at  timestamptz not null,
    used_at     timestamptz
);
create index dashboard_sign_in_links_by_user on dashboard_sign_in_links (user_id);

-- Append-only: who did what to which target, when, in which mode, from where, and the before and after of a change.
create table dashboard_audit_log (
    id           bigint generated always as identity primary key,
    occurred_at  timestamptz not null,
    merchant_id  text,
    user_id      text,
    -- the email typed at a failed sign-in, which may belong to no user
    actor        text not null,
    action       text not null,
    target       text,
    mode         text check (mode in ('test', 'live')),
    client_address text,
    user_agent   text,
    before_state jsonb,
    after_state  jsonb
);
create index dashboard_audit_log_by_merchant on dashboard_audit_log (merchant_id, id desc);

-- The service never rewrites history; neither may a stray statement.
create function dashboard_audit_log_append_only() returns trigger language plpgsql as $$
begin
    raise exception 'dashboard_audit_log is append-only: % refused', tg_op;
end
$$;
create trigger dashboard_audit_log_append_only before update or delete on dashboard_audit_log
    for each row execute function dashboard_audit_log_append_only();
create trigger dashboard_audit_log_no_truncate before truncate on dashboard_audit_log
    for each statement execute function dashboard_audit_log_append_only();
