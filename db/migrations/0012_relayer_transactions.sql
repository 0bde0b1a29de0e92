-- Relayed transactions (sweeps today; payers' gasless authorizations and refunds later) are
-- submitted through one nonce sequence per relayer key, held here, so that two jobs in one
-- worker, or workers on several hosts, never sign two transactions with the same relayer nonce
-- (worker/relayer/submit.ts).

-- The next nonce each relayer will use. Taken with one UPDATE (its row lock serialises every
-- taker, in any process), never lower than the chain's own count for the key.
create table app.relayer_nonces (
  address text primary key check (address ~ '^0x[0-9a-f]{40}$'),
  next_nonce bigint not null check (next_nonce >= 0),
  updated_at timestamptz not null default now()
);

-- One row per relayed transaction: its nonce, what it calls, the signed bytes last sent (so a
-- restarted worker can broadcast it again), every hash it was sent under (a replacement at a
-- higher fee has another hash), and how it ended.
create table app.relayer_transactions (
  id uuid primary key default gen_random_uuid(),
  -- Who asked for it, unique: `sweep:<sweep id>:<submission>`. Asking twice returns the first.
  purpose text not null unique,
  relayer text not null check (relayer ~ '^0x[0-9a-f]{40}$'),
  nonce bigint not null check (nonce >= 0),
  to_address text not null check (to_address ~ '^0x[0-9a-f]{40}$'),
  data text not null check (data ~ '^0x([0-9a-f]{2})*$'),
  gas bigint not null check (gas > 0),
  max_fee_per_gas numeric(78, 0) not null check (max_fee_per_gas > 0),
  max_priority_fee_per_gas numeric(78, 0) not null check (max_priority_fee_per_gas >= 0),
  signed text not null check (signed ~ '^0x[0-9a-f]*$'),
  hashes text[] not null check (cardinality(hashes) >= 1),
  -- pending: waiting to be mined; mined: one of `hashes` is in a block (receipt_status says how
  -- it went); dropped: the nonce was used by another transaction, none of ours was mined.
  status text not null default 'pending' check (status in ('pending', 'mined', 'dropped')),
  -- The chain's head when the current hash was last accepted by the node: replacement is
  -- judged by blocks since. Null until a broadcast has been accepted.
  sent_block bigint,
  mined_hash text,
  mined_block bigint,
  receipt_status text check (receipt_status in ('success', 'reverted')),
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (relayer, nonce)
);
create index relayer_transactions_pending on app.relayer_transactions (relayer, nonce)
  where status = 'pending';

-- A sweep records the relayer nonce its current submission went out under.
alter table app.sweeps add column relayer_nonce bigint;

-- A sweep that can never succeed is marked failed and its invoice's merchant told, once.
alter table app.emails add column sweep_id uuid references app.sweeps (id);
create unique index emails_one_per_failed_sweep on app.emails (sweep_id) where kind = 'sweep_failed';
