-- Webhook secrets are stored sealed (AES-256-GCM under WEBHOOK_SECRET_KEY, `enc:v1:<key id>:…`,
-- domain/secretBox.ts), so a database dump alone does not reveal them. The key never reaches
-- the database: `npm start` re-seals rows written in plain text before this migration (and
-- rows under a previous key after a rotation) right after migrating.

-- From now on only sealed values may be written. NOT VALID: the rows from before are checked
-- when they are re-sealed, not now (the key is not known here).
alter table app.invoices add constraint invoices_webhook_secret_sealed
  check (webhook_secret like 'enc:v1:%') not valid;
alter table app.payment_links add constraint payment_links_webhook_secret_sealed
  check (webhook_secret like 'enc:v1:%') not valid;

-- Append-only still, but for re-sealing: the secret may be rewritten, as a sealed value only
-- (the constraints above), and never set or removed (the url/secret pairing checks).
create or replace function app.reject_invoice_change() returns trigger
language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'invoices are append-only: % cannot be deleted', tg_table_name
      using errcode = 'integrity_constraint_violation';
  end if;
  if (to_jsonb(new) - array['status', 'sent_at', 'webhook_secret'])
     <> (to_jsonb(old) - array['status', 'sent_at', 'webhook_secret']) then
    raise exception 'invoices are append-only: only status and sent_at may change'
      using errcode = 'integrity_constraint_violation';
  end if;
  return new;
end
$$;

create or replace function app.reject_link_change() returns trigger
language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'payment links are append-only: they cannot be deleted'
      using errcode = 'integrity_constraint_violation';
  end if;
  if (to_jsonb(new) - array['status', 'webhook_secret'])
     <> (to_jsonb(old) - array['status', 'webhook_secret']) then
    raise exception 'payment links are append-only: only status may change'
      using errcode = 'integrity_constraint_violation';
  end if;
  return new;
end
$$;
