-- The recovery job completes the Idempotency-Keys of requests that died mid-way; it finds them by resource.
create index idempotency_keys_unfinished on idempotency_keys (resource_id) where state = 'started';
