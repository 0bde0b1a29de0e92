-- Payment detection: derived state per invoice, the events it produces, and their webhooks.

-- What the reconcile job last derived from the indexed transfers (domain/paymentState.ts).
-- Only differences to it produce events, so replays change nothing.
create table app.invoice_payment_state (
  invoice_id uuid primary key references app.invoices (id),
  received bigint not null default 0,
  -- The ids (`<tx hash>-<log index>`) of the transfers counted in `received`.
  counted text[] not null default '{}',
  latest_tx_hash text,
  latest_paid_at timestamptz,
  updated_at timestamptz not null default now()
);

-- A change in what an invoice has received: the merchant's email and the webhook come from it.
create table app.payment_events (
  id uuid primary key default gen_random_uuid(),
  invoice_id uuid not null references app.invoices (id),
  type text not null check (type in ('invoice.paid', 'invoice.partial', 'invoice.excess', 'invoice.payment_reversed')),
  status text not null,
  paid_amount bigint not null,
  tx_hash text,
  paid_at timestamptz,
  -- The webhook body, fixed once so every attempt sends (and signs) the same bytes.
  payload text not null,
  created_at timestamptz not null default now()
);
create index payment_events_invoice on app.payment_events (invoice_id, created_at);

alter table app.emails add column event_id uuid references app.payment_events (id);

create table app.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  event_id uuid not null references app.payment_events (id),
  url text not null,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed', 'gone')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  delivered_at timestamptz,
  created_at timestamptz not null default now()
);
create index webhook_deliveries_event on app.webhook_deliveries (event_id);

-- Every attempt, for the merchant to inspect (GET /api/invoices/{id}/webhooks).
create table app.webhook_attempts (
  id bigint generated always as identity primary key,
  delivery_id uuid not null references app.webhook_deliveries (id),
  attempt integer not null,
  attempted_at timestamptz not null default now(),
  status_code integer,
  latency_ms integer not null,
  error text
);
create index webhook_attempts_delivery on app.webhook_attempts (delivery_id, attempt);

create function app.enqueue_webhook_delivery() returns trigger
language plpgsql as $$
begin
  perform graphile_worker.add_job(
    'deliver_webhook', json_build_object('delivery_id', new.id), job_key => 'webhook:' || new.id::text
  );
  return new;
end
$$;

create trigger webhook_deliveries_enqueue after insert on app.webhook_deliveries
  for each row execute function app.enqueue_webhook_delivery();

-- Called from a trigger on the indexer's transfer table: a transfer to or from one of our
-- deposit addresses (re)computes that address's payment state. Thin and never raising: a
-- trigger that raises stalls Ponder and then kills it. Names are schema-qualified because
-- Ponder's flush creates TEMP tables with the same unqualified names.
create function app.enqueue_reconcile() returns trigger
language plpgsql as $$
declare
  touched text[];
  candidate text;
begin
  if tg_op = 'DELETE' then
    touched := array[old."to", old."from"];
  else
    touched := array[new."to", new."from"];
  end if;
  foreach candidate in array touched loop
    if exists (select 1 from app.deposit_addresses d where d.address = candidate) then
      perform graphile_worker.add_job(
        'reconcile_deposit', json_build_object('address', candidate), job_key => 'reconcile:' || candidate
      );
    end if;
  end loop;
  return null;
exception when others then
  raise warning 'remit: could not enqueue a reconcile job: %', sqlerrm;
  return null;
end
$$;

-- Ponder creates its tables when it starts, in a schema per build (INDEXER_SCHEMA), so the
-- trigger is installed at run time, by the worker, once the table exists. Returns whether it is.
create function app.install_transfer_trigger(indexer_schema text) returns boolean
language plpgsql as $$
begin
  if to_regclass(format('%I.usdc_transfer', indexer_schema)) is null then
    return false;
  end if;
  execute format(
    'create or replace trigger remit_reconcile after insert or update or delete on %I.usdc_transfer
     for each row execute function app.enqueue_reconcile()', indexer_schema);
  return true;
end
$$;

-- Long-running processes identify their graphile-worker workers, so a restarted worker can
-- release the jobs a crashed one held (see unlockCrashedJobs in worker/startup.ts).
alter table app.heartbeats add column instance text not null default '';
alter table app.heartbeats add column worker_ids text[] not null default '{}';
alter table app.heartbeats drop constraint heartbeats_pkey;
alter table app.heartbeats add primary key (component, instance);
