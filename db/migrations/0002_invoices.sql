-- Merchants, invoices, their line items and PDFs, idempotency keys and the email outbox.
-- Amounts are USDC base units (6 decimals) in bigint columns.

create table app.merchants (
  id uuid primary key default gen_random_uuid(),
  -- Lowercased by the API: one merchant per mailbox.
  email text not null unique,
  -- Per-merchant invoice counter; the row lock taken to bump it serialises numbering.
  last_invoice_number integer not null default 0,
  -- The merchant's managed wallet, derived from the service seed on first use.
  managed_wallet_index integer unique,
  managed_wallet_address text unique check (managed_wallet_address ~ '^0x[0-9a-fA-F]{40}$'),
  created_at timestamptz not null default now()
);

create sequence app.managed_wallet_index_seq as integer minvalue 0 start 0;

create table app.invoices (
  id uuid primary key default gen_random_uuid(),
  merchant_id uuid not null references app.merchants (id),
  invoice_number text not null check (invoice_number ~ '^INV-[0-9]{4,}$'),
  slug text not null unique,
  merchant_email text not null,
  merchant_name_snapshot text not null,
  merchant_address_snapshot text not null,
  vendor_email text not null,
  vendor_name text not null,
  vendor_address text,
  issue_date date not null,
  due_date date not null,
  notes text,
  wallet_type text not null check (wallet_type in ('managed', 'byo')),
  -- Where the money goes: the byo address, or the merchant's managed wallet.
  wallet_address text not null check (wallet_address ~ '^0x[0-9a-fA-F]{40}$'),
  deposit_address text not null unique references app.deposit_addresses (address),
  total_amount bigint not null check (total_amount > 0),
  webhook_url text,
  -- Shown once in the 201; kept so the worker can sign webhooks. Never returned again.
  webhook_secret text,
  status text not null check (status in ('draft', 'sent', 'paid', 'partial', 'excess')),
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  unique (merchant_id, invoice_number),
  check ((webhook_url is null) = (webhook_secret is null)),
  check (due_date >= issue_date),
  check ((status = 'draft') = (sent_at is null) or status in ('paid', 'partial', 'excess'))
);

create table app.invoice_line_items (
  invoice_id uuid not null references app.invoices (id),
  position smallint not null check (position between 0 and 29),
  description text not null,
  -- The quantity exactly as the JSON number denoted it.
  quantity numeric not null check (quantity > 0),
  unit_price bigint not null check (unit_price >= 0),
  line_total bigint not null check (line_total >= 0),
  primary key (invoice_id, position)
);

-- Rendered once at creation; the bytes emailed are the bytes downloaded, forever.
create table app.invoice_pdfs (
  invoice_id uuid primary key references app.invoices (id),
  pdf bytea not null,
  sha256 text not null
);

-- Invoices are append-only for audit (spec §2.3): only the lifecycle columns may change, and
-- nothing may be deleted. Enforced here, not only in code.
create function app.reject_invoice_change() returns trigger
language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'invoices are append-only: % cannot be deleted', tg_table_name
      using errcode = 'integrity_constraint_violation';
  end if;
  if (to_jsonb(new) - array['status', 'sent_at']) <> (to_jsonb(old) - array['status', 'sent_at']) then
    raise exception 'invoices are append-only: only status and sent_at may change'
      using errcode = 'integrity_constraint_violation';
  end if;
  return new;
end
$$;

create function app.reject_any_change() returns trigger
language plpgsql as $$
begin
  raise exception '% is append-only: rows cannot be updated or deleted', tg_table_name
    using errcode = 'integrity_constraint_violation';
end
$$;

create trigger invoices_append_only before update or delete on app.invoices
  for each row execute function app.reject_invoice_change();
create trigger invoice_line_items_append_only before update or delete on app.invoice_line_items
  for each row execute function app.reject_any_change();
create trigger invoice_pdfs_append_only before update or delete on app.invoice_pdfs
  for each row execute function app.reject_any_change();
-- TRUNCATE bypasses row triggers.
create trigger invoices_no_truncate before truncate on app.invoices
  for each statement execute function app.reject_any_change();
create trigger invoice_line_items_no_truncate before truncate on app.invoice_line_items
  for each statement execute function app.reject_any_change();
create trigger invoice_pdfs_no_truncate before truncate on app.invoice_pdfs
  for each statement execute function app.reject_any_change();

-- A replayed POST with the same Idempotency-Key gets the original response.
create table app.idempotency_keys (
  key text not null,
  operation text not null,
  request_hash text not null,
  response_status smallint not null,
  response_body jsonb not null,
  invoice_id uuid references app.invoices (id),
  created_at timestamptz not null default now(),
  primary key (operation, key)
);

-- Every email Remit sends, written in the same transaction as the change that causes it; the
-- send_email job delivers it. Its id is the message's identity for de-duplication.
create table app.emails (
  id uuid primary key default gen_random_uuid(),
  kind text not null,
  invoice_id uuid references app.invoices (id),
  recipient text not null,
  status text not null default 'queued' check (status in ('queued', 'sent', 'failed')),
  attempts integer not null default 0,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now()
);

-- An invoice is sent to its vendor once, however often /send is called concurrently.
create unique index emails_one_vendor_invoice on app.emails (invoice_id) where kind = 'vendor_invoice';

create function app.enqueue_email() returns trigger
language plpgsql as $$
begin
  perform graphile_worker.add_job(
    'send_email', json_build_object('email_id', new.id), job_key => 'email:' || new.id::text
  );
  return new;
end
$$;

create trigger emails_enqueue after insert on app.emails
  for each row execute function app.enqueue_email();
