-- Void and refunds (issue 17 items 2 and 3).

-- A void invoice: cancelled before anything was paid; no status change after it (a payment that
-- still arrives is an unexpected payment, held for refund). An addition to spec §3.1.
alter table app.invoices drop constraint invoices_status_check;
alter table app.invoices add constraint invoices_status_check
  check (status in ('draft', 'sent', 'paid', 'partial', 'excess', 'void'));
alter table app.invoices add column voided_at timestamptz;
alter table app.invoices add constraint invoices_void_has_time
  check ((status = 'void') = (voided_at is not null));
-- The draft/sent_at rule of 0002 (an unnamed check): a void invoice keeps the sent_at it had.
do $$
declare name text;
begin
  select conname into name from pg_constraint
    where conrelid = 'app.invoices'::regclass and contype = 'c'
      and pg_get_constraintdef(oid) like '%sent_at IS NULL%';
  execute format('alter table app.invoices drop constraint %I', name);
end
$$;
-- Append-only still: voiding sets voided_at once, with the status; nothing else changes.
create or replace function app.reject_invoice_change() returns trigger
language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'invoices are append-only: % cannot be deleted', tg_table_name
      using errcode = 'integrity_constraint_violation';
  end if;
  if (to_jsonb(new) - array['status', 'sent_at', 'webhook_secret', 'voided_at'])
     <> (to_jsonb(old) - array['status', 'sent_at', 'webhook_secret', 'voided_at'])
     or (old.voided_at is not null and new.voided_at is distinct from old.voided_at) then
    raise exception 'invoices are append-only: only status and sent_at may change (and voided_at, once)'
      using errcode = 'integrity_constraint_violation';
  end if;
  return new;
end
$$;
alter table app.invoices add constraint invoices_draft_unsent
  check ((status = 'draft') = (sent_at is null) or status in ('paid', 'partial', 'excess', 'void'));

-- The events of both features: a payment to a void invoice, and a refund confirmed on chain.
alter table app.payment_events drop constraint payment_events_type_check;
alter table app.payment_events add constraint payment_events_type_check check (type in (
  'invoice.paid', 'invoice.partial', 'invoice.excess', 'invoice.payment_reversed',
  'link.confirmed', 'link.partial', 'link.excess', 'link.payment_reversed',
  'invoice.unexpected_payment', 'invoice.refunded', 'link.refunded'));

-- A refund: one EIP-3009 transferWithAuthorization out of the deposit address (or the
-- merchant's managed wallet), signed by its key with a nonce derived from the refund's id
-- (domain/refundNonce.ts), so however often it is submitted USDC executes it once.
create table app.refunds (
  id uuid primary key,
  invoice_id uuid references app.invoices (id),
  link_id uuid references app.payment_links (id),
  merchant_id uuid not null references app.merchants (id),
  -- Where the money leaves from: the deposit address, or the merchant's managed wallet.
  source text not null check (source in ('deposit', 'managed_wallet')),
  from_address text not null check (from_address ~ '^0x[0-9a-f]{40}$'),
  nonce text not null unique check (nonce ~ '^0x[0-9a-f]{64}$'),
  amount bigint not null check (amount > 0),
  -- Null until the payer names it through the claim link.
  to_address text check (to_address ~ '^0x[0-9a-fA-F]{40}$'),
  -- The merchant asked for the payment's sender explicitly (`to_sender: true`).
  to_sender boolean not null default false,
  -- A one-time claim link's token, as its SHA-256; used once (claimed_at), until claim_expires_at.
  claim_token_hash text unique check (claim_token_hash ~ '^[0-9a-f]{64}$'),
  claim_expires_at timestamptz,
  claimed_at timestamptz,
  status text not null default 'requested'
    check (status in ('requested', 'submitted', 'confirmed', 'failed')),
  tx_hash text check (tx_hash ~ '^0x[0-9a-f]{64}$'),
  error text,
  -- Submissions made (each a relayer transaction `refund:<id>:<n>`).
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  confirmed_at timestamptz,
  check ((invoice_id is null) <> (link_id is null)),
  check (to_address is not null or claim_token_hash is not null),
  check (status in ('requested', 'failed') or to_address is not null)
);
create index refunds_invoice on app.refunds (invoice_id, created_at) where invoice_id is not null;
create index refunds_link on app.refunds (link_id, created_at) where link_id is not null;
-- What is being refunded from an address: the sweep policy subtracts it.
create index refunds_from_address on app.refunds (from_address) where status <> 'failed';

-- A refund with a destination is submitted by the worker (`submit_refund`): at its creation,
-- or when the payer names the address through the claim link.
create function app.enqueue_refund() returns trigger
language plpgsql as $$
begin
  if new.status = 'requested' and new.to_address is not null
     and (tg_op = 'INSERT' or old.to_address is null) then
    perform graphile_worker.add_job(
      'submit_refund', json_build_object('refund_id', new.id), job_key => 'refund:' || new.id::text
    );
  end if;
  return null;
end
$$;
create trigger refunds_enqueue after insert or update of to_address on app.refunds
  for each row execute function app.enqueue_refund();

-- The emails of both features name their refund.
alter table app.emails add column refund_id uuid references app.refunds (id);
create unique index emails_one_per_refund on app.emails (refund_id, kind, recipient)
  where refund_id is not null;
create unique index emails_one_void_notice on app.emails (invoice_id) where kind = 'invoice_void';
