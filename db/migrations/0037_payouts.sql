-- Payouts (issue 39): money taken out of a merchant's managed wallet, to one of its registered
-- payout wallets. One EIP-3009 transferWithAuthorization signed by the managed wallet's key,
-- with a nonce derived from the payout's id (domain/refundNonce.ts payoutNonce), so however
-- often it is submitted USDC executes it once.
create table app.payouts (
  id uuid primary key,
  merchant_id uuid not null references app.merchants (id),
  -- The managed wallet it leaves from, and the registered payout wallet it goes to.
  from_address text not null check (from_address ~ '^0x[0-9a-f]{40}$'),
  to_address text not null check (to_address ~ '^0x[0-9a-fA-F]{40}$'),
  nonce text not null unique check (nonce ~ '^0x[0-9a-f]{64}$'),
  amount bigint not null check (amount > 0),
  -- Asked for (`request`), or made by the merchant's automatic payout setting (`automatic`).
  trigger text not null default 'request' check (trigger in ('request', 'automatic')),
  status text not null default 'requested'
    check (status in ('requested', 'submitted', 'confirmed', 'failed')),
  tx_hash text check (tx_hash ~ '^0x[0-9a-f]{64}$'),
  error text,
  -- Submissions made (each a relayer transaction `payout:<id>:<n>`).
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  confirmed_at timestamptz
);
create index payouts_merchant on app.payouts (merchant_id, created_at);
-- What is leaving a managed wallet: a refund or a payout planned after it subtracts it.
create index payouts_unfinished on app.payouts (from_address) where status in ('requested', 'submitted');

-- A payout is submitted by the worker (`submit_payout`) as soon as it is recorded.
create function app.enqueue_payout() returns trigger
language plpgsql as $$
begin
  perform graphile_worker.add_job(
    'submit_payout', json_build_object('payout_id', new.id), job_key => 'payout:' || new.id::text
  );
  return null;
end
$$;
create trigger payouts_enqueue after insert on app.payouts
  for each row execute function app.enqueue_payout();

-- The emails of a payout name it (one of each kind per payout).
alter table app.emails add column payout_id uuid references app.payouts (id);
create unique index emails_one_per_payout on app.emails (payout_id, kind) where payout_id is not null;
