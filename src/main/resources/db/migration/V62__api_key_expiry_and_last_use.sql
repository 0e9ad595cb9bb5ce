-- Rolling a key (decisions §11): the old key keeps working until expires_at, then answers 401 like a revoked one.
-- last_used_at is when the key last authenticated a request, written at most once a minute per key and instance,
-- off the request's path; so it may lag the real last use by up to a minute.
alter table api_keys
    add column expires_at   timestamptz,
    add column last_used_at timestamptz;
