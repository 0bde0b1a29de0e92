-- Managed wallets are derived hardened (m/44'/60'/2'/0/<index>'), by the worker alone: the API
-- holds no key able to derive them (keys/hdWallet.ts says why). The worker keeps a pool of
-- addresses derived ahead; a merchant's first managed invoice or link takes one, in the
-- creating transaction. Wallets made before (m/44'/60'/1'/0/<index>) stay as they are.

-- Which path a merchant's managed wallet is at: false for those made before this migration.
alter table app.merchants add column managed_wallet_hardened boolean not null default false;

-- Addresses derived by the worker and not yet given to a merchant. Indexes come from
-- app.managed_wallet_index_seq, like the older wallets', so managed_wallet_index stays unique.
create table app.managed_wallet_pool (
  derivation_index integer primary key,
  address text not null unique check (address ~ '^0x[0-9a-fA-F]{40}$'),
  created_at timestamptz not null default now()
);

-- Taking from the pool asks the worker to top it up (one job however many were taken). At
-- commit (deferred): the keyed job is one row, and concurrent creations would otherwise hold
-- its lock, and wait on each other, for the rest of their transactions.
create function app.refill_managed_wallet_pool() returns trigger
language plpgsql as $$
begin
  perform graphile_worker.add_job(
    'provision_managed_wallets', '{}'::json, job_key => 'provision_managed_wallets'
  );
  return null;
end
$$;

create constraint trigger managed_wallet_pool_taken after delete on app.managed_wallet_pool
  deferrable initially deferred
  for each row execute function app.refill_managed_wallet_pool();
