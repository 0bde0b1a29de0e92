-- Remit's own tables live in schema "app"; Ponder owns the indexer schemas, graphile-worker
-- owns "graphile_worker".
create schema if not exists app;

-- Each invoice and payment link gets its own address, derived from the service seed at
-- derivation_index. The indexer keeps only transfers that touch one of these addresses.
create sequence app.deposit_address_index_seq as integer minvalue 0 start 0;

create table app.deposit_addresses (
  address text primary key check (address ~ '^0x[0-9a-f]{40}$'),
  derivation_index integer not null unique default nextval('app.deposit_address_index_seq'),
  created_at timestamptz not null default now()
);

-- The indexer LISTENs on this channel to keep its in-memory set current
-- (indexer/depositAddresses.ts). Thin and never raising.
create function app.notify_deposit_address() returns trigger
language plpgsql as $$
begin
  perform pg_notify('remit_deposit_address', new.address);
  return new;
end
$$;

create trigger deposit_addresses_notify
  after insert on app.deposit_addresses
  for each row execute function app.notify_deposit_address();

-- Long-running processes (the worker) record that they are alive; /health reads it.
create table app.heartbeats (
  component text primary key,
  pid integer not null,
  beat_at timestamptz not null default now()
);
