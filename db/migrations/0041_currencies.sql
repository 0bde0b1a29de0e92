-- Issue 45. Prices in a currency: an invoice or a payment link priced in USD, EUR or GBP is paid
-- in USDC at the rate of Chainlink's feeds on Base (docs/currencies.md). `USDC`, the default,
-- is the spec's behaviour. The currency is part of the record: the append-only trigger compares
-- whole rows, so it can never change.
alter table app.invoices add column currency text not null default 'USDC'
  check (currency in ('USDC', 'USD', 'EUR', 'GBP'));
alter table app.payment_links add column currency text not null default 'USDC'
  check (currency in ('USDC', 'USD', 'EUR', 'GBP'));

-- What a page, the widget, x402 or the gasless route asked a payer to send: amount_due (in the
-- currency, 6 decimals) as amount_due_usdc at the rate read in block_number, held until
-- expires_at. A payment of exactly amount_due_usdc inside the window counts as amount_due
-- (domain/currencyPayments.ts). Kept, never changed: a payment is judged against the quotes
-- that stood when it was mined.
create table app.rate_quotes (
  id uuid primary key,
  deposit_address text not null,
  currency text not null check (currency in ('USD', 'EUR', 'GBP')),
  amount_due bigint not null check (amount_due > 0),
  amount_due_usdc bigint not null check (amount_due_usdc > 0),
  rate_numerator numeric not null check (rate_numerator > 0),
  rate_denominator numeric not null check (rate_denominator > 0),
  block_number bigint not null,
  quoted_at timestamptz not null,
  expires_at timestamptz not null check (expires_at > quoted_at)
);
create index rate_quotes_of_address on app.rate_quotes (deposit_address, quoted_at);

-- The rate a counted payment was converted at: the block it was read at (the payment's own, or
-- the first usable one after it) and the rounds of each feed, so anyone can check it against
-- the chain. Keyed by the transfer and its block: a transfer re-mined in another block is a
-- new conversion, and the conversion of one reorged out is simply never read again.
create table app.payment_conversions (
  deposit_address text not null,
  transfer_id text not null,
  block_number bigint not null,
  currency text not null check (currency in ('USD', 'EUR', 'GBP')),
  rate_block_number bigint not null check (rate_block_number >= block_number),
  rate_numerator numeric not null check (rate_numerator > 0),
  rate_denominator numeric not null check (rate_denominator > 0),
  -- {"EUR": {"round_id": "…", "answer": "…", "updated_at": "…"}, "USDC": {…}}
  rounds jsonb not null,
  created_at timestamptz not null default now(),
  primary key (deposit_address, transfer_id, block_number)
);

create trigger rate_quotes_append_only before update or delete on app.rate_quotes
  for each row execute function app.reject_document_change();
create trigger payment_conversions_append_only before update or delete on app.payment_conversions
  for each row execute function app.reject_document_change();
