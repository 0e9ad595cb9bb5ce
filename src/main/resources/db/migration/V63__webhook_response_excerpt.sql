-- The start of what a receiver answered, for the dashboard's deliveries list (decisions §11: "body excerpt"): at most
-- 500 characters of the response body as text, NUL characters dropped; null when no answer or an empty body arrived.
alter table webhook_attempts add column response_excerpt text;
