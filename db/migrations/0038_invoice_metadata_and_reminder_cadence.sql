-- Issue 42. Invoices carry `metadata` as payment links do (migration 0004): a flat object of at
-- most 20 keys, validated by the API (app/invoices/schema.ts metadataSchema), set at creation
-- and, like every other field of an invoice, never changed after. The list filters on one key
-- or more (`?metadata[order_id]=1042`: `metadata @> '{"order_id": "1042"}'`, this index).
alter table app.invoices add column metadata jsonb not null default '{}';
create index invoices_metadata on app.invoices using gin (metadata jsonb_path_ops);

-- Reminders know each other (domain/reminders.ts reminderHold): one cadence per invoice and one
-- cap per customer (a merchant's vendor email, in any case) per day, by hand or automatic. Each
-- reminder names its customer, so the cap is counted on one index.
alter table app.invoice_reminders add column merchant_id uuid references app.merchants (id);
alter table app.invoice_reminders add column customer text;
update app.invoice_reminders r set merchant_id = i.merchant_id, customer = lower(i.vendor_email)
  from app.invoices i where i.id = r.invoice_id;
alter table app.invoice_reminders alter column merchant_id set not null;
alter table app.invoice_reminders alter column customer set not null;
create index invoice_reminders_customer on app.invoice_reminders (merchant_id, customer, sent_at);

-- When the reminder sweep next has something to do for an open invoice (domain/reminders.ts
-- nextReminderCheck): a due-date event, a policy step, the end of a hold; null when nothing
-- will until the policy changes. The sweep reads only the rows whose moment has come, so an
-- invoice overdue for years is looked at when it has to be, and not every minute (the sweep
-- once looked back 90 days only: an older invoice got neither its reminder nor
-- `invoice.overdue`). A row exists while the invoice is open (sent or partly paid), kept by the
-- trigger below; a new one is looked at by the next sweep.
create table app.reminder_checks (
  invoice_id uuid primary key references app.invoices (id),
  check_at timestamptz default '1970-01-01T00:00:00Z',
  -- The sweep's moment that set check_at: one after the sweep's now means the clock went back
  -- (the test clock does), and the invoice is looked at again.
  checked_at timestamptz
);
create index reminder_checks_due on app.reminder_checks (check_at, invoice_id)
  where check_at is not null;
create index reminder_checks_checked on app.reminder_checks (checked_at);

create function app.track_reminder_check() returns trigger
language plpgsql as $$
begin
  if new.status in ('sent', 'partial') then
    insert into app.reminder_checks (invoice_id) values (new.id) on conflict (invoice_id) do nothing;
  else
    delete from app.reminder_checks where invoice_id = new.id;
  end if;
  return null;
end
$$;
create trigger invoices_reminder_check after insert or update of status on app.invoices
  for each row execute function app.track_reminder_check();

insert into app.reminder_checks (invoice_id)
  select id from app.invoices where status in ('sent', 'partial');
