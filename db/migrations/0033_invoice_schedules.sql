-- Invoice schedules (docs/api.md, "Invoice schedules"): a template issued as an ordinary invoice
-- once per period. Exactly one invoice per (schedule, period): the unique index on the invoices
-- below, in the same transaction that advances the schedule.
create table app.invoice_schedules (
  id uuid primary key default gen_random_uuid(),
  merchant_id uuid not null references app.merchants (id),
  -- The key that created it: the issued invoices are created (and audited) as that key.
  key_id uuid references app.api_keys (id),
  -- The POST /api/invoices body without issue_date and due_date, as validated.
  template jsonb not null,
  frequency text not null check (frequency in ('weekly', 'monthly', 'every_n_days')),
  every_n_days integer check (every_n_days between 1 and 366),
  start_date date not null,
  end_date date,
  max_count integer check (max_count between 1 and 10000),
  days_until_due integer not null check (days_until_due between 0 and 365),
  status text not null default 'active'
    check (status in ('active', 'paused', 'cancelled', 'completed')),
  -- The index of the next period (0: start_date) and its date; null once there is none.
  next_period integer not null default 0,
  next_issue_date date,
  issued_count integer not null default 0,
  -- Why the last attempt to issue failed (a template no longer valid pauses the schedule).
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((frequency = 'every_n_days') = (every_n_days is not null)),
  check (end_date is null or end_date >= start_date)
);
-- The worker's due query: active schedules by their next date.
create index invoice_schedules_due on app.invoice_schedules (next_issue_date)
  where status = 'active';
create index invoice_schedules_merchant on app.invoice_schedules (merchant_id, created_at desc, id desc);

alter table app.invoices add column schedule_id uuid references app.invoice_schedules (id);
-- The period (its scheduled date) an invoice of a schedule was issued for.
alter table app.invoices add column schedule_period date;
alter table app.invoices add constraint invoices_schedule_period_complete
  check ((schedule_id is null) = (schedule_period is null));
create unique index invoices_one_per_schedule_period on app.invoices (schedule_id, schedule_period)
  where schedule_id is not null;

-- The test clock (docs/development.md, "The test clock"): an offset added to the time the
-- scheduler and reminders read. Read only when TEST_CLOCK=on, which a real chain refuses.
create table app.test_clock (
  id boolean primary key default true check (id),
  offset_ms bigint not null default 0
);
