-- A replayed request gets the original response byte for byte: jsonb would reorder its keys.
alter table app.idempotency_keys alter column response_body type text using response_body::text;
