-- Payment reminders (docs/api.md, "Reminders"): a policy per merchant (none stored: the
-- defaults), and each reminder sent, at most one per invoice and policy step.
create table app.reminder_policies (
  merchant_id uuid primary key references app.merchants (id),
  enabled boolean not null default true,
  -- The steps, in order: days relative to the due date (negative: before), and each on or off.
  step_days integer[] not null,
  step_enabled boolean[] not null,
  max_reminders integer not null check (max_reminders between 0 and 20),
  updated_at timestamptz not null default now(),
  check (cardinality(step_days) = cardinality(step_enabled) and cardinality(step_days) <= 8)
);

create table app.invoice_reminders (
  id uuid primary key default gen_random_uuid(),
  invoice_id uuid not null references app.invoices (id),
  -- The policy step (days relative to the due date); null for one sent on request.
  step integer,
  amount_due bigint not null check (amount_due > 0),
  email_id uuid references app.emails (id),
  -- The clock's time (the test clock's, under TEST_CLOCK) and the wall clock's.
  sent_at timestamptz not null,
  created_at timestamptz not null default now()
);
create unique index invoice_reminders_one_per_step on app.invoice_reminders (invoice_id, step)
  where step is not null;
create index invoice_reminders_invoice on app.invoice_reminders (invoice_id, created_at);

-- Candidates of the reminder sweep: what is still open, by due date.
create index invoices_open_by_due on app.invoices (due_date) where status in ('sent', 'partial');

-- The due-date events, once each per invoice.
alter table app.payment_events drop constraint payment_events_type_check;
alter table app.payment_events add constraint payment_events_type_check check (type in (
  'invoice.paid', 'invoice.partial', 'invoice.excess', 'invoice.payment_reversed',
  'link.confirmed', 'link.partial', 'link.excess', 'link.payment_reversed',
  'invoice.unexpected_payment', 'invoice.refunded', 'link.refunded', 'webhook.test',
  'invoice.will_be_due', 'invoice.overdue'));
create unique index payment_events_once_per_invoice on app.payment_events (invoice_id, type)
  where type in ('invoice.will_be_due', 'invoice.overdue');
