-- Decisions §13, on the links and the audit log an earlier version left behind.
--
-- A sign-in link only lets a user without a password choose their first one, and a user has at most one link that
-- works (io.tender.dashboard.OneTimeLinks). Links that broke those rules before (every start printed another link for
-- the owner of "default", and any of them could reset a password that was set meanwhile) end now: those of users who
-- have a password or were removed, and all but the newest of the others. The statement reads the table as it was
-- before it, so "the newest" is judged among the links that worked.
update dashboard_sign_in_links l
set expires_at = now()
where l.used_at is null
  and l.expires_at > now()
  and (exists (select 1 from dashboard_users u
               where u.id = l.user_id and (u.password_hash is not null or u.disabled))
       or exists (select 1 from dashboard_sign_in_links newer
                  where newer.user_id = l.user_id and newer.used_at is null and newer.expires_at > now()
                    and (newer.created_at, newer.token_hash) > (l.created_at, l.token_hash)));

-- The audit log is the merchants': a row of no merchant (a sign-in for an email no user has, which anyone outside could
-- write for ever into this append-only table) is refused; those go to the service's own log. Rows written before stay
-- (the table refuses deletes), so the check applies to new rows only.
alter table dashboard_audit_log add constraint dashboard_audit_log_of_a_merchant check (merchant_id is not null)
    not valid;
