-- Settlement: each deposit address's USDC is swept to the merchant's wallet by an EIP-3009
-- transferWithAuthorization that the deposit key signs and a relayer submits.

create table app.sweeps (
  id uuid primary key default gen_random_uuid(),
  deposit_address text not null references app.deposit_addresses (address),
  -- The nth sweep of this address; with the address it makes the authorization's nonce, so a
  -- retried or duplicated sweep can never move funds twice.
  sequence integer not null check (sequence >= 1),
  nonce text not null check (nonce ~ '^0x[0-9a-f]{64}$'),
  destination text not null check (destination ~ '^0x[0-9a-fA-F]{40}$'),
  amount bigint not null check (amount > 0),
  status text not null default 'signed' check (status in ('signed', 'submitted', 'confirmed', 'failed')),
  tx_hash text,
  error text,
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (deposit_address, sequence)
);
create index sweeps_status on app.sweeps (status) where status in ('signed', 'submitted', 'failed');
