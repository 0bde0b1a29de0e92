-- Gasless payments (issue 18): a payer's signed EIP-3009 transferWithAuthorization paying what
-- an invoice or link still owes into its deposit address. The API verifies it and stores it
-- here; the worker's relayer submits it and pays the gas.

create table app.payer_authorizations (
  id uuid primary key default gen_random_uuid(),
  deposit_address text not null references app.deposit_addresses (address),
  payer text not null check (payer ~ '^0x[0-9a-f]{40}$'),
  value bigint not null check (value > 0),
  valid_after bigint not null check (valid_after >= 0),
  valid_before bigint not null check (valid_before > valid_after),
  nonce text not null check (nonce ~ '^0x[0-9a-f]{64}$'),
  signature text not null check (signature ~ '^0x([0-9a-f]{2})+$'),
  -- Counted against RELAYER_DAILY_GAS_BUDGET until gas_used is known.
  gas_reserved bigint not null check (gas_reserved > 0),
  status text not null default 'pending'
    check (status in ('pending', 'sending', 'submitted', 'mined', 'failed', 'expired')),
  tx_hash text check (tx_hash ~ '^0x[0-9a-f]{64}$'),
  gas_used bigint,
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- USDC executes an authorization once; Remit stores it once (a replay is refused before it
  -- costs anything).
  unique (payer, nonce)
);

-- At most one payment on its way per deposit address: a second would pay twice.
create unique index payer_authorizations_one_open on app.payer_authorizations (deposit_address)
  where status in ('pending', 'sending', 'submitted');
-- The daily gas budget sums today's rows.
create index payer_authorizations_created_at on app.payer_authorizations (created_at);

create function app.enqueue_relay_authorization() returns trigger
language plpgsql as $$
begin
  perform graphile_worker.add_job(
    'relay_authorization', json_build_object('id', new.id), job_key => 'relay:' || new.id::text,
    -- An authorization is valid for an hour at most: retrying for days is pointless.
    max_attempts => 8
  );
  return null;
end
$$;

create trigger payer_authorizations_enqueue after insert on app.payer_authorizations
  for each row execute function app.enqueue_relay_authorization();

